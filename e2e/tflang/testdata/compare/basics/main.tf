terraform {
  required_version = ">= 1.5"
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.6" }
    local  = { source = "hashicorp/local", version = ">= 2.4, < 3.0" }
  }
}

variable "names" {
  type    = list(string)
  default = ["alpha", "beta"]
}

variable "settings" {
  type    = object({ prefix = string, pets = optional(number, 2), tags = optional(map(string), {}) })
  default = { prefix = "demo" }
}

locals {
  greeting = "hello ${var.settings.prefix}"
  upper    = [for n in var.names : upper(n)]
  by_name  = { for i, n in var.names : n => i }
  big      = length(var.names) > 1 ? "many" : "few"
}

resource "random_pet" "p" {
  count  = var.settings.pets
  length = 2
}

resource "random_integer" "seeded" {
  count = 2
  min   = 1
  max   = 1000
  seed  = "s${count.index}"
}

resource "local_file" "f" {
  for_each = toset(var.names)
  filename = "${path.module}/out-${each.key}.txt"
  content  = <<-EOT
    ${local.greeting} ${each.value}
    %{for i in range(2)~}
    line ${i}
    %{endfor~}
  EOT
}

output "greeting" { value = local.greeting }
output "upper" { value = local.upper }
output "by_name" { value = local.by_name }
output "big" { value = local.big }
output "files" { value = [for k, f in local_file.f : f.filename] }
output "contents" { value = { for k, f in local_file.f : k => f.content } }
output "seeded" { value = random_integer.seeded[*].result }
output "tags" { value = var.settings.tags }
output "rand_pets" { value = random_pet.p[*].id }
output "workspace_len" { value = length(terraform.workspace) > 0 }
