variable "index" { type = number }
output "double" { value = var.index * 2 }
