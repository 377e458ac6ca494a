locals {
  base = "10.20.0.0/16"
  subnets = cidrsubnets(local.base, 4, 4, 8, 4)
}

resource "terraform_data" "net" {
  input = local.subnets
}

output "subnets" { value = terraform_data.net.output }
output "hosts" { value = [for s in local.subnets : cidrhost(s, 5)] }
output "netmask" { value = cidrnetmask(local.subnets[2]) }
output "subnet" { value = cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162) }
output "v6host" { value = cidrhost("fd00::/64", 300) }
output "neg" { value = cidrhost("192.168.1.0/24", -2) }
