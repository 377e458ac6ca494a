variable "input" {
  type    = string
  default = "hi"
}

resource "terraform_data" "x" {
  input = var.input
}

output "input" {
  value = var.input
}

output "echo" {
  value = terraform_data.x.output
}
