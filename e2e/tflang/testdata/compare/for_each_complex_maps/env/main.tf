variable "name" {
  type = string
}

variable "repos" {
  type = map(bool)
}

resource "terraform_data" "deploy" {
  for_each = var.repos
  input    = "${var.name}:${each.key}:${each.value ? "locked" : "open"}"
}

output "names" {
  value = sort([for d in terraform_data.deploy : d.output])
}
