variable "a" { default = "default-a" }
variable "b" { default = "default-b" }
variable "c" {
  type    = list(number)
  default = []
}

resource "local_file" "f" {
  filename = "vars.txt"
  content  = "${var.a} ${var.b} ${join(",", var.c)}"
}

output "content" { value = local_file.f.content }
