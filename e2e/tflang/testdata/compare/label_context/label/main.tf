variable "context" {
  type = any
}

variable "name" {
  type    = string
  default = null
}

variable "attributes" {
  type    = list(string)
  default = []
}

variable "tags" {
  type    = map(string)
  default = {}
}

variable "delimiter" {
  type    = string
  default = null
}

variable "label_order" {
  type    = list(string)
  default = null
}

variable "id_length_limit" {
  type    = number
  default = null
  validation {
    condition     = var.id_length_limit == null ? true : var.id_length_limit >= 6 || var.id_length_limit == 0
    error_message = "The id_length_limit must be at least 6, or 0 for no limit."
  }
}

locals {
  defaults = {
    label_order = ["namespace", "environment", "stage", "name", "attributes"]
    delimiter   = "-"
    regex       = "/[^a-zA-Z0-9-]/"
  }
  input = {
    namespace   = lookup(var.context, "namespace", null)
    environment = lookup(var.context, "environment", null)
    stage       = lookup(var.context, "stage", null)
    name        = var.name == null ? lookup(var.context, "name", null) : var.name
    enabled     = lookup(var.context, "enabled", true)
    delimiter   = var.delimiter == null ? lookup(var.context, "delimiter", null) : var.delimiter
    label_order = var.label_order == null ? lookup(var.context, "label_order", []) : var.label_order
    attributes  = compact(distinct(concat(lookup(var.context, "attributes", []), var.attributes)))
    tags        = merge(lookup(var.context, "tags", {}), var.tags)
  }
  delimiter   = coalesce(local.input.delimiter, local.defaults.delimiter)
  label_order = length(local.input.label_order) > 0 ? local.input.label_order : local.defaults.label_order
  clean = {
    for k in ["namespace", "environment", "stage", "name"] :
    k => local.input[k] == null ? "" : lower(replace(local.input[k], local.defaults.regex, ""))
  }
  attributes = [for a in local.input.attributes : lower(replace(a, local.defaults.regex, ""))]
  parts = {
    namespace   = local.clean.namespace
    environment = local.clean.environment
    stage       = local.clean.stage
    name        = local.clean.name
    attributes  = join(local.delimiter, local.attributes)
  }
  full_id = join(local.delimiter, compact([for l in local.label_order : local.parts[l]]))
  limit   = var.id_length_limit == null ? 0 : var.id_length_limit
  hash    = substr(md5(local.full_id), 0, 5)
  id = local.limit == 0 || length(local.full_id) <= local.limit ? local.full_id : format(
    "%s%s%s", trimsuffix(substr(local.full_id, 0, local.limit - 6), local.delimiter), local.delimiter, local.hash
  )
  generated_tags = {
    for k, v in { Name = local.id, Namespace = local.clean.namespace, Environment = local.clean.environment, Stage = local.clean.stage } :
    k => v if v != ""
  }
}

output "id" {
  value = local.input.enabled ? local.id : ""
}

output "tags" {
  value = local.input.enabled ? merge(local.generated_tags, local.input.tags) : {}
}

output "context" {
  value = {
    namespace   = local.input.namespace
    environment = local.input.environment
    stage       = local.input.stage
    name        = local.input.name
    enabled     = local.input.enabled
    delimiter   = local.input.delimiter
    label_order = local.input.label_order
    attributes  = local.input.attributes
    tags        = local.input.tags
  }
}

output "descriptors" {
  value = {
    stack   = format("%v-%v", local.clean.stage, local.clean.name)
    account = upper(format("%s/%s", local.clean.namespace, local.clean.environment))
    list    = formatlist("%s=%s", keys(local.parts), values(local.parts))
  }
}
