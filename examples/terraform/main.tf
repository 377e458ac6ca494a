# A Terraform configuration plinth runs unchanged: ./run.sh (from the
# repository root: examples/terraform/run.sh) runs `plinth init`, which
# installs the providers from a local registry the script starts, then
# `plinth up`.

terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.6" }
    local  = { source = "hashicorp/local" }
  }
}

variable "pets" {
  type    = number
  default = 2
}

resource "random_pet" "name" {
  count  = var.pets
  length = 2
}

resource "local_file" "note" {
  for_each = { for i, p in random_pet.name : tostring(i) => p.id }
  filename = "${path.module}/out/pet-${each.key}.txt"
  content  = "Pet ${each.key} is called ${each.value}.\n"
}

output "pets" {
  value = random_pet.name[*].id
}
