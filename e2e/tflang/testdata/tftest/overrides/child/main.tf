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

provider "random" {
  alias = "other"
}

resource "random_pet" "q" {
  provider = random.other
}

output "other_id" {
  value = random_pet.q.id
}
