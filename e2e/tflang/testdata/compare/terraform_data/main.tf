# terraform_data: input reflected in output, triggers_replace, ids random.
resource "random_pet" "pet" {
  length = 2
}

resource "terraform_data" "follows" {
  input            = { pet_len = length(split("-", random_pet.pet.id)), tag = "t" }
  triggers_replace = random_pet.pet.id
}

resource "terraform_data" "plain" {
  input = ["a", "b"]
}


output "follows" { value = terraform_data.follows.output }
output "plain" { value = terraform_data.plain.output }
output "rand_id" { value = terraform_data.plain.id }
output "id_length" { value = length(terraform_data.plain.id) }
