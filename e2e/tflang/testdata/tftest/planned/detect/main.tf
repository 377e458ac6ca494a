variable "in" {
  type     = any
  nullable = false
  default  = { marker_list = [], marker_map = {} }
}

output "provided" {
  value = var.in != { marker_list = [], marker_map = {} }
}
