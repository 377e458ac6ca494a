# A guard module: its variable's validation refers to another variable
# and holds while either is null, as assertion modules on the registry do.
variable "message" {
  type    = string
  default = null
}

variable "ok" {
  type    = bool
  default = null
  validation {
    condition     = var.ok == null ? true : (var.message == null ? var.ok : var.ok)
    error_message = var.ok == null || var.ok == true ? "" : "guard: ${coalesce(var.message, "failed")}"
  }
}

output "checked" {
  value = var.ok == true || var.ok == null
}
