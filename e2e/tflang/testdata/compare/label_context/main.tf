# A naming module in the manner of cloudposse's null-label: a context
# object passed down and merged with each call's own inputs, labels
# normalised by a regex, joined in a chosen order, tags derived from the
# labels, and an id cut to a length limit with a hash suffix.
variable "context" {
  type = any
  default = {
    namespace   = "Eg"
    environment = "Use1"
    stage       = "Prod"
    name        = null
    attributes  = ["blue"]
    tags        = { Owner = "platform" }
    delimiter   = null
    label_order = []
    enabled     = true
  }
}

module "base" {
  source  = "./label"
  context = var.context
  name    = "Web Server!"
}

module "child" {
  source      = "./label"
  context     = module.base.context
  attributes  = ["cache", "blue"]
  delimiter   = "_"
  label_order = ["name", "stage", "attributes"]
  tags        = { Tier = "cache" }
}

module "short" {
  source          = "./label"
  context         = module.child.context
  name            = "a-really-long-component-name-that-will-not-fit"
  id_length_limit = 24
}

module "disabled" {
  source  = "./label"
  context = merge(module.base.context, { enabled = false })
}

resource "terraform_data" "tagged" {
  for_each = { for m in [module.base, module.child, module.short] : m.id => m.tags }
  input    = each.value
}

output "ids" {
  value = [module.base.id, module.child.id, module.short.id, module.disabled.id]
}

output "tags" {
  value = { for k, r in terraform_data.tagged : k => r.output }
}

output "child_context" {
  value = module.child.context
}

output "short_len" {
  value = length(module.short.id)
}

output "descriptors" {
  value = module.child.descriptors
}
