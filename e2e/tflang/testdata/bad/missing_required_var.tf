# want: main.tf:2:1 No value for required variable
variable "needed" {}
output "x" { value = var.needed }
