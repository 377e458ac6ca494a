variable "seed" {
  type    = string
  default = "seed"
}

resource "terraform_data" "seed" {
  input = upper(var.seed)
}

output "seed" {
  value = terraform_data.seed.output
}
