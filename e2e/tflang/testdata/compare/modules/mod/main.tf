terraform {
  required_providers {
    local = { source = "hashicorp/local", version = "~> 2.4" }
  }
}

variable "name" { type = string }
variable "size" { type = number }

resource "local_file" "page" {
  filename = "${path.root}/site-${var.name}.txt"
  content  = "${var.name} has size ${var.size}\n"
}

module "inner" {
  source = "./inner"
  count  = var.size
  index  = count.index
}

output "file" { value = local_file.page.filename }
output "inner" { value = module.inner[*].double }
