variable "name" {
  type = string
}

resource "random_pet" "p" {
  prefix = var.name
}

output "id" {
  value = random_pet.p.id
}

output "other" {
  value = "o"
}
