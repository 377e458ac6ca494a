variable "name" { type = string }
variable "index" { type = number }

resource "terraform_data" "label" {
  input = "${var.index}:${upper(var.name)}"
}

output "label" { value = terraform_data.label.output }
output "name" { value = var.name }
