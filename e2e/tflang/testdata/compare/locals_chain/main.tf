locals {
  base     = "app"
  env      = "prod"
  name     = "${local.base}-${local.env}"
  regions  = ["eu-west-1", "us-east-1"]
  names    = [for r in local.regions : "${local.name}-${r}"]
  by_name  = { for i, n in local.names : n => i }
  n        = length(local.by_name)
  doubled  = local.n * 2
  summary  = "${local.name} in ${local.n} regions (${local.doubled})"
}

resource "local_file" "l" {
  filename = "${local.name}.txt"
  content  = local.summary
}

output "names" { value = local.names }
output "by_name" { value = local.by_name }
output "summary" { value = local_file.l.content }
