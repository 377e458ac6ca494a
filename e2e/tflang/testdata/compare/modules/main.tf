module "site" {
  source   = "./mod"
  for_each = { alpha = 1, beta = 2 }
  name     = each.key
  size     = each.value
}

module "single" {
  source = "./mod"
  name   = "single"
  size   = 3
}

output "files" { value = { for k, m in module.site : k => m.file } }
output "inner" { value = { for k, m in module.site : k => m.inner } }
output "single" { value = module.single.file }
