# Network math in the manner of hashicorp/subnets/cidr: named networks
# carved from a base block by cidrsubnets with the new bits of each, null
# names reserving space, IPv4 and IPv6, hosts and netmasks, and a
# per-zone layout from nested for expressions.
variable "base" {
  type    = string
  default = "10.20.0.0/16"
}

variable "networks" {
  type = list(object({
    name     = string
    new_bits = number
  }))
  default = [
    { name = "public-a", new_bits = 8 },
    { name = "public-b", new_bits = 8 },
    { name = null, new_bits = 4 },
    { name = "private-a", new_bits = 4 },
    { name = "private-b", new_bits = 4 },
    { name = "db", new_bits = 10 },
  ]
}

variable "zones" {
  type    = list(string)
  default = ["a", "b", "c"]
}

locals {
  addrs     = cidrsubnets(var.base, var.networks[*].new_bits...)
  named     = { for i, n in var.networks : n.name => local.addrs[i] if n.name != null }
  v6        = cidrsubnets("fd00:fd12:3456:7800::/56", 8, 8, 4, 16)
  per_zone  = { for i, z in var.zones : z => { public = cidrsubnet(var.base, 6, i), private = cidrsubnet(var.base, 4, i + 4) } }
  hosts     = { for k, c in local.named : k => [cidrhost(c, 1), cidrhost(c, -2)] }
  masks     = { for k, c in local.named : k => cidrnetmask(c) }
  prefixes  = { for k, c in local.named : k => tonumber(split("/", c)[1]) }
  sizes     = { for k, p in local.prefixes : k => pow(2, 32 - p) }
  by_prefix = { for k, p in local.prefixes : tostring(p) => k... }
}

resource "terraform_data" "subnet" {
  for_each = local.named
  input = {
    cidr    = each.value
    gateway = cidrhost(each.value, 1)
    mask    = cidrnetmask(each.value)
  }
}

resource "local_file" "layout" {
  filename = "${path.module}/out/layout.json"
  content  = jsonencode({ for k, r in terraform_data.subnet : k => r.output })
}

output "addrs" {
  value = local.addrs
}

output "named" {
  value = local.named
}

output "v6" {
  value = local.v6
}

output "per_zone" {
  value = local.per_zone
}

output "hosts" {
  value = local.hosts
}

output "masks" {
  value = local.masks
}

output "sizes" {
  value = local.sizes
}

output "by_prefix" {
  value = local.by_prefix
}

output "layout" {
  value = jsondecode(local_file.layout.content)
}

output "v6_hosts" {
  value = [for c in local.v6 : cidrhost(c, 255)]
}
