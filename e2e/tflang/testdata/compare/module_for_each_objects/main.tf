variable "sites" {
  type = map(object({
    title = string
    pages = optional(list(string), ["index"])
  }))
  default = {
    alpha = { title = "Alpha" }
    beta  = { title = "Beta", pages = ["index", "about"] }
  }
}

module "site" {
  source   = "./modules/site"
  for_each = var.sites
  name     = each.key
  site     = each.value
}

resource "terraform_data" "after" {
  depends_on = [module.site]
  input      = [for k, m in module.site : m.summary]
}

locals {
  defaults = { color = "red", size = { w = 1, h = 2 } }
  over     = { size = { w = 5, h = 6 }, shape = "sq" }
  merged   = merge(local.defaults, local.over)
  objs = {
    a = { n = 1, label = null }
    b = { n = 2, label = "bee" }
  }
}

output "summaries" { value = { for k, m in module.site : k => m.summary } }
output "paths" { value = { for k, m in module.site : k => m.rel } }
output "after" { value = terraform_data.after.output }
output "merged" { value = local.merged }
output "labels" { value = { for k, o in local.objs : k => coalesce(o.label, "none-${k}") } }
output "lookup" { value = lookup(local.objs, "b", { n = 0, label = "x" }).n }
output "lookup_miss" { value = lookup(local.objs, "z", { n = 0, label = "x" }) }
