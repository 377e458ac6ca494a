variable "name" {
  type = string
}

variable "port" {
  type = number
}

resource "terraform_data" "site" {
  input = templatefile("${path.module}/site.tftpl", { name = var.name, port = var.port, aliases = [for i in range(2) : "${var.name}-${i}.example.com"] })
}

output "rendered" {
  value = terraform_data.site.output
}
