# for expressions, conditionals, splats and collection functions.
locals {
  people = [
    { name = "ada", age = 36, langs = ["en", "fr"] },
    { name = "bob", age = 17, langs = ["en"] },
    { name = "cyd", age = 52, langs = [] },
  ]
  adults = [for p in local.people : p.name if p.age >= 18]
  by_name = { for p in local.people : p.name => p.age }
  grouped = { for p in local.people : (p.age >= 18 ? "adult" : "minor") => p.name... }
  langs   = distinct(flatten(local.people[*].langs))
}

resource "terraform_data" "people" {
  count = length(local.people)
  input = local.people[count.index].age > 40 ? "senior" : "other"
}

output "adults" { value = local.adults }
output "by_name" { value = local.by_name }
output "grouped" { value = local.grouped }
output "langs" { value = local.langs }
output "kinds" { value = terraform_data.people[*].output }
output "first_adult" { value = try(local.adults[0], "none") }
