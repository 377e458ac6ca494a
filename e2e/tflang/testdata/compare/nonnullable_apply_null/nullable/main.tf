variable "v" {
  type    = string
  default = "the default"
}

output "v" { value = var.v == null ? "null" : var.v }
