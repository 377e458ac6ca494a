# Nested loops the way modules write them: setproduct of environments,
# regions and services into one instance per combination, flatten of
# nested for expressions, transpose of a membership map, chunklist into
# batches, and grouping by an attribute with the ... form.
variable "envs" {
  type    = set(string)
  default = ["prod", "dev"]
}

variable "regions" {
  type    = list(string)
  default = ["eu-west-1", "us-east-1"]
}

variable "services" {
  type = list(object({ name = string, port = number }))
  default = [
    { name = "api", port = 8080 },
    { name = "web", port = 80 },
  ]
}

variable "groups" {
  type = map(list(string))
  default = {
    admins  = ["ana", "bo"]
    readers = ["bo", "cy", "di"]
    empty   = []
  }
}

locals {
  combos = setproduct(var.envs, var.regions, var.services)
  deployments = {
    for c in local.combos : "${c[0]}/${c[1]}/${c[2].name}" => {
      env = c[0], region = c[1], service = c[2].name, port = c[2].port + (c[0] == "prod" ? 0 : 10000)
    }
  }
  pairs      = setproduct(["a", "b"], [1, 2])
  empty      = setproduct(["a"], [])
  user_groups = transpose(var.groups)
  flat = flatten([
    for g, users in var.groups : [
      for i, u in users : { group = g, user = u, index = i }
    ]
  ])
  batches    = chunklist(sort(keys(local.deployments)), 3)
  by_region  = { for k, d in local.deployments : d.region => d.service... }
  ports      = distinct([for d in values(local.deployments) : d.port])
  nested     = flatten([[["a"]], [["b", ["c"]]], []])
}

resource "terraform_data" "deploy" {
  for_each = local.deployments
  input    = each.value
}

resource "terraform_data" "batch" {
  count = length(local.batches)
  input = local.batches[count.index]
}

output "deployments" {
  value = { for k, r in terraform_data.deploy : k => r.output.port }
}

output "combos" {
  value = local.combos
}

output "pairs" {
  value = local.pairs
}

output "empty" {
  value = local.empty
}

output "user_groups" {
  value = local.user_groups
}

output "flat" {
  value = local.flat
}

output "batches" {
  value = terraform_data.batch[*].output
}

output "by_region" {
  value = local.by_region
}

output "ports" {
  value = sort(local.ports)
}

output "nested" {
  value = local.nested
}
