# want: main.tf:6:25 Output refers to sensitive values
variable "secret" {
  default   = "x"
  sensitive = true
}
output "leak" { value = var.secret }
