# A module variable with nullable = false and a default, given a value
# that is unknown during the plan and null once applied: terraform 1.11
# substitutes the default at apply too (module "known_later" and
# "data_output"), as it does for a null known during the plan
# ("known_null"). A nullable variable keeps the null ("nullable").
# terraform_data's output, null when its input is null, is an attribute
# like any other (it is null, not missing).

resource "random_pet" "p" {}

resource "terraform_data" "d" {
  input = null
}

module "known_later" {
  source = "./mod"
  v      = random_pet.p.id == "" ? "given" : null
}

module "data_output" {
  source = "./mod"
  v      = terraform_data.d.output
}

module "known_null" {
  source = "./mod"
  v      = null
}

module "nullable" {
  source = "./nullable"
  v      = random_pet.p.id == "" ? "given" : null
}

output "known_later" { value = module.known_later.v }
output "known_later_null" { value = module.known_later.is_null }
output "data_output" { value = module.data_output.v }
output "known_null" { value = module.known_null.v }
output "nullable" { value = module.nullable.v }
output "data_output_null" { value = terraform_data.d.output == null }
