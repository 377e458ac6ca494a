variable "names" {
  type = list(string)
}

resource "terraform_data" "join" {
  input = join(",", var.names)
}

output "joined" {
  value = terraform_data.join.output
}
