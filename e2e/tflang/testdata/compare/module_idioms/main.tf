# Idioms met in public modules run side by side with terraform 1.11:
# a cross-variable guard module, merge() over regexall() of a tab table,
# CIDR text with leading zeros, format() padding flags, and random bytes
# turned into an address (whose shape, not value, is compared).

locals {
  table = <<-EOT
    # code	name
    NL	Netherlands
    NZ	New Zealand
    US	United States
  EOT
  zones = <<-EOT
    NL	+5222+00454	Europe/Amsterdam
    NZ,AQ	-3652+17446	Pacific/Auckland	most of NZ
    US	+404251-0740023	America/New_York	Eastern (most areas)
  EOT
}

module "guard" {
  source  = "./guard"
  ok      = length(local.table) > 0
  message = "the table is empty"
}

module "unguarded" {
  source = "./guard"
}

resource "random_id" "bytes" {
  byte_length = 6
}

locals {
  hex    = random_id.bytes.hex
  groups = [for i in range(3) : format("%-04s", substr(local.hex, 4 * i, 4))]
}

output "countries" {
  value = merge([
    for c in regexall("(?m)^(?P<code>[^#\t]+)\t(?P<name>[^\n]*)$", local.table) : { (c.code) = c.name }
  ]...)
}

output "zones" {
  value = merge([
    for z in regexall("(?m)^(?P<cc>[^#\t]+)\t(?P<coord>[^\t]+)\t(?P<tz>[^\t\n]+)(?:\t(?P<note>[^\n]*))?$", local.zones) : {
      (z.tz) = { countries = split(",", z.cc), coordinates = z.coord, note = z.note }
    }
  ]...)
}

output "guards" {
  value = [module.guard.checked, module.unguarded.checked]
}

output "cidrs" {
  value = {
    zeros     = cidrhost("010.001.000.000/016", 5)
    netmask   = cidrnetmask("10.0.0.0/012")
    subnets   = cidrsubnets("fd00::/48", 16, 16, 8)
    contained = [for c in ["10.0.0.1/32", "10.0.0.2/31"] : cidrsubnet(c, 0, 0)]
  }
}

output "formats" {
  value = [
    format("%-04s|", "ab"), format("%04s|", "ab"), format("%-6d|", 42), format("%06.2f", 3.14159),
    format("%+d %+d", 5, -5), format("%x %X %o %b", 255, 255, 8, 5), format("%8.3s|", "abcdef"),
    format("%q", "say \"hi\""), format("%v %5v|", true, "x"), format("%[2]s-%[1]s", "a", "b"),
  ]
}

output "address_shape" {
  value = [length(local.groups), alltrue([for g in local.groups : length(g) == 4]), can(cidrhost("fc${substr(join(":", local.groups), 2, -1)}::/48", 1))]
}

output "rand_address" {
  value = join(":", local.groups)
}
