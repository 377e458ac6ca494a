# try and can as modules use them: inputs of several shapes normalised
# (a string or a list, a number or a numeric string), optional lookups
# into decoded documents, validation conditions built from can(regex()),
# and fallbacks when a conversion fails.
variable "ports" {
  type    = any
  default = ["80", 443, "8080-8090", "bad"]
}

variable "subnets" {
  type    = any
  default = "10.0.1.0/24"
}

variable "email" {
  type    = string
  default = "ops@example.com"
  validation {
    condition     = can(regex("^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$", var.email))
    error_message = "The email must be an address like name@example.com."
  }
}

variable "cidr" {
  type    = string
  default = "192.168.0.0/20"
  validation {
    condition     = can(cidrhost(var.cidr, 0)) && try(tonumber(split("/", var.cidr)[1]) <= 24, false)
    error_message = "The cidr must be a network of /24 or larger."
  }
}

locals {
  doc = jsondecode(<<-EOT
    {"a": {"b": {"c": 1}}, "list": [{"x": 1}, {"y": 2}], "str": "text", "num": "42"}
  EOT
  )
  subnets = try(tolist(var.subnets), [tostring(var.subnets)])
  ports = [
    for p in var.ports : try(
      { from = tonumber(p), to = tonumber(p) },
      { from = tonumber(split("-", p)[0]), to = tonumber(split("-", p)[1]) },
      null
    )
  ]
  lookups = {
    deep      = try(local.doc.a.b.c, "missing")
    absent    = try(local.doc.a.z.c, "missing")
    index     = try(local.doc.list[5].x, "out of range")
    attr      = try(local.doc.list[1].x, local.doc.list[1].y)
    number    = try(tonumber(local.doc.num) + 1, 0)
    not_num   = try(tonumber(local.doc.str), -1)
    can_map   = can(keys(local.doc.a))
    can_str   = can(keys(local.doc.str))
    can_index = can(local.doc.list[0].x)
    bool_str  = try(tobool("true"), false)
    type_list = can(tolist(local.doc.list))
    nested    = try(local.doc.a.b, {})
    regex_ok  = can(regex("^[a-z]+$", local.doc.str))
    regex_bad = can(regex("^[0-9]+$", local.doc.str))
  }
}

resource "random_integer" "port" {
  min = 1024
  max = 65535
}

resource "terraform_data" "ports" {
  for_each = { for i, p in local.ports : tostring(i) => p if p != null }
  input    = each.value
}

output "subnets" {
  value = local.subnets
}

output "ports" {
  value = local.ports
}

output "lookups" {
  value = local.lookups
}

output "stored" {
  value = { for k, r in terraform_data.ports : k => r.output }
}

output "port_in_range" {
  value = try(random_integer.port.result >= 1024, false)
}

output "rand_port" {
  value = random_integer.port.result
}
