variable "a" {
  default = "default"
}

variable "b" {
  default = "default"
}

variable "c" {
  default = "default"
}

variable "d" {
  default = "default"
}

variable "e" {
  default = "default"
}

output "all" {
  value = join("/", [var.a, var.b, var.c, var.d, var.e])
}
