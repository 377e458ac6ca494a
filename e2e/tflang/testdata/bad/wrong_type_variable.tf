# want: main.tf:10:12 Incorrect attribute value type
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
variable "name" {
  default = "abc"
}
resource "random_pet" "p" {
  length = var.name
}
