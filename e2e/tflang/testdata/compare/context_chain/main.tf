# A context passed down a chain of modules in the manner of
# drape-io/null-context: a typed context object with optional fields,
# each level overriding some fields and inheriting the rest, tags
# merged and their keys re-cased, nulls telling "inherit" from "empty",
# and a disabled level producing nothing.
module "root" {
  source = "./ctx"
  group  = "acme"
  env    = "prd"
  tags   = { Team = "core", cost-center = "42" }
}

module "service" {
  source     = "./ctx"
  context    = module.root.context
  scope      = "billing"
  attributes = ["api"]
}

module "worker" {
  source     = "./ctx"
  context    = module.service.context
  attributes = ["worker", "api"]
  key_case   = "upper"
  tags       = { tier = "batch" }
}

module "sandbox" {
  source  = "./ctx"
  context = merge(module.service.context, { env = "sbx", tags = null })
  group   = ""
}

module "off" {
  source  = "./ctx"
  context = module.worker.context
  enabled = false
}

resource "random_pet" "suffix" {
  keepers = { id = module.worker.id }
}

resource "terraform_data" "resource" {
  for_each = { for m in [module.root, module.service, module.worker, module.sandbox] : m.id => m.tags if m.enabled }
  input    = each.value
}

output "ids" {
  value = [module.root.id, module.service.id, module.worker.id, module.sandbox.id, module.off.id]
}

output "slashes" {
  value = [module.root.id_slash, module.worker.id_slash]
}

output "tags" {
  value = { for k, r in terraform_data.resource : k => r.output }
}

output "worker_context" {
  value = module.worker.context
}

output "off" {
  value = { tags = module.off.tags, enabled = module.off.enabled }
}

output "keepers" {
  value = random_pet.suffix.keepers
}

output "rand_name" {
  value = "${module.worker.id}-${random_pet.suffix.id}"
}
