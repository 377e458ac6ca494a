variable "a" { default = "default" }
variable "b" { default = "default" }
variable "c" { default = "default" }
variable "d" { default = "default" }
variable "e" { default = "default" }
variable "list" {
  type    = list(string)
  default = []
}

resource "local_file" "vars" {
  filename = "vars.txt"
  content  = join(" ", [var.a, var.b, var.c, var.d, var.e])
}

output "a" { value = var.a }
output "b" { value = var.b }
output "c" { value = var.c }
output "d" { value = var.d }
output "e" { value = var.e }
output "list" { value = var.list }
output "content" { value = local_file.vars.content }
