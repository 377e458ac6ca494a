variable "name" {
  type = string
}

resource "terraform_data" "page" {
  input = var.name
}
