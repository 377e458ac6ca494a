# want: main.tf:4:13 Invalid value for input variable
variable "n" {
  type    = number
  default = "not a number"
}
output "n" { value = var.n }
