variable "context" {
  type = object({
    enabled    = optional(bool)
    group      = optional(string)
    env        = optional(string)
    scope      = optional(string)
    attributes = optional(list(string))
    tags       = optional(map(string))
    key_case   = optional(string)
  })
  default = {}
}

variable "enabled" {
  type    = bool
  default = null
}

variable "group" {
  type    = string
  default = null
  validation {
    condition     = var.group == null || can(regex("^[0-9A-Za-z-]*$", var.group))
    error_message = "The group may hold only letters, digits and hyphens."
  }
}

variable "env" {
  type    = string
  default = null
}

variable "scope" {
  type    = string
  default = null
}

variable "attributes" {
  type    = list(string)
  default = null
}

variable "tags" {
  type    = map(string)
  default = null
}

variable "key_case" {
  type    = string
  default = null
  validation {
    condition     = var.key_case == null || contains(["lower", "upper", "title", "none"], coalesce(var.key_case, "none"))
    error_message = "The key_case must be lower, upper, title or none."
  }
}

locals {
  env_names = { prd = "production", stg = "staging", dev = "development" }
  enabled   = var.enabled != null ? var.enabled : (var.context.enabled != null ? var.context.enabled : true)
  group     = var.group != null ? var.group : (var.context.group != null ? var.context.group : "")
  env       = var.env != null ? var.env : (var.context.env != null ? var.context.env : "")
  scope     = var.scope != null ? var.scope : (var.context.scope != null ? var.context.scope : "")
  key_case  = coalesce(var.key_case, var.context.key_case, "lower")
  attributes = compact(distinct(concat(coalesce(var.context.attributes, []), coalesce(var.attributes, []))))
  tags       = merge(coalesce(var.context.tags, {}), coalesce(var.tags, {}))
  parts = [for p in [local.group, local.env, local.scope, join("-", local.attributes)] : p if length(p) > 0]
  id    = join("-", local.parts)
  generated = merge(
    { for k, v in { group = local.group, environment = lookup(local.env_names, local.env, local.env), scope = local.scope } : k => v if v != "" },
    local.tags,
    { "managed-by" = "terraform" },
  )
  cased = {
    for k, v in local.generated :
    (local.key_case == "lower" ? lower(k) : local.key_case == "upper" ? upper(k) : local.key_case == "title" ? title(k) : k) => v
  }
}

output "id" {
  value = local.enabled ? local.id : null
}

output "id_slash" {
  value = local.enabled ? join("/", local.parts) : null
}

output "tags" {
  value = local.enabled ? local.cased : {}
}

output "enabled" {
  value = local.enabled
}

output "context" {
  value = {
    enabled    = local.enabled
    group      = local.group
    env        = local.env
    scope      = local.scope
    attributes = local.attributes
    tags       = local.tags
    key_case   = local.key_case
  }
}
