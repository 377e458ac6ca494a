module "env" {
  source   = "./env"
  for_each = { dev = 1, prod = 2 }
  name     = each.key
  replicas = each.value
}

output "files" { value = { for k, e in module.env : k => e.files } }
output "names" { value = flatten([for e in module.env : e.names]) }
