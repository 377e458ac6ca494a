# want: main.tf:6:21 Invalid value for variable
variable "size" {
  type    = number
  default = 1
  validation {
    condition     = var.size > 5
    error_message = "The size must be more than 5."
  }
}

resource "local_file" "base" {
  filename = "base.txt"
  content  = "base ${var.size}"
}
