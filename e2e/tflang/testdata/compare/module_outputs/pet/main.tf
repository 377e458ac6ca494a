variable "prefix" { type = string }

resource "random_pet" "p" {
  prefix = var.prefix
  length = 2
}

output "id" { value = random_pet.p.id }
output "length" { value = random_pet.p.length }
