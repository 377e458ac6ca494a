variable "v" {
  type     = string
  nullable = false
  default  = "the default"
}

output "v" { value = var.v == null ? "null" : var.v }
output "is_null" { value = var.v == null }
