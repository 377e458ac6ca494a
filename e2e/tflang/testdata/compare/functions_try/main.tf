locals {
  raw    = jsondecode("{\"a\": {\"b\": 1}, \"list\": [1, 2]}")
  inputs = ["web-01", "db-12", "bad"]
}

resource "terraform_data" "t" {
  input = {
    present = try(local.raw.a.b, "none")
    missing = try(local.raw.a.c, "none")
    third   = try(local.raw.list[2], -1)
    can_ok  = can(local.raw.a.b)
    can_bad = can(local.raw.nope)
  }
}

output "t" { value = terraform_data.t.output }
output "parsed" { value = [for s in local.inputs : try(regex("^([a-z]+)-([0-9]+)$", s), ["?", "?"])] }
output "named" { value = regex("(?P<name>[a-z]+)-(?P<num>\\d+)", "web-01") }
output "all" { value = regexall("[0-9]+", "a1 b22 c333") }
output "one" { value = [one([]), one(["x"])] }
output "coalesce" { value = [coalesce("", "b"), coalesce(null, 2), coalescelist([], ["z"])] }
output "numbers" { value = [parseint("ff", 16), parseint("-101", 2), floor(-1.5), ceil(1.2), pow(2, 10), log(8, 2), signum(-3), abs(-4), max(1, 9, 3), min(4, 2)] }
output "convert" { value = [tonumber("3.5"), tostring(12), tobool("true"), tolist(toset(["b", "a"])), tomap({ a = 1 })] }
