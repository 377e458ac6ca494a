# optional() object attributes with defaults as modules declare them:
# nested objects whose defaults apply at every level, defaults inside
# maps and lists of objects, an explicit null replaced by the default,
# an optional object left null, and defaults with a tfvars file.
variable "apps" {
  type = map(object({
    image    = string
    replicas = optional(number, 1)
    ports    = optional(list(number), [80])
    env      = optional(map(string), {})
    health = optional(object({
      path     = optional(string, "/healthz")
      interval = optional(number, 30)
      enabled  = optional(bool, true)
    }), {})
    storage = optional(object({
      size  = number
      class = optional(string, "standard")
    }))
    sidecars = optional(list(object({
      name  = string
      image = optional(string, "busybox")
      args  = optional(list(string))
    })), [])
  }))
}

variable "settings" {
  type = object({
    region = optional(string, "eu-west-1")
    tags   = optional(map(string), { managed = "true" })
    limits = optional(object({ cpu = optional(number, 1), mem = optional(string, "1Gi") }), { cpu = 2 })
  })
  default = {}
}

variable "nullable_default" {
  type     = string
  default  = "fallback"
  nullable = false
}

locals {
  summary = {
    for k, a in var.apps : k => {
      replicas = a.replicas
      ports    = a.ports
      health   = "${a.health.path}@${a.health.interval}s/${a.health.enabled}"
      storage  = a.storage == null ? "none" : "${a.storage.size}Gi/${a.storage.class}"
      sidecars = [for s in a.sidecars : "${s.name}:${s.image}:${s.args == null ? "-" : join(" ", s.args)}"]
      env_keys = sort(keys(a.env))
    }
  }
}

resource "terraform_data" "app" {
  for_each = var.apps
  input    = each.value
}

output "apps" {
  value = var.apps
}

output "summary" {
  value = local.summary
}

output "settings" {
  value = var.settings
}

output "nullable_default" {
  value = var.nullable_default
}

output "stored" {
  value = { for k, r in terraform_data.app : k => r.output.health }
}
