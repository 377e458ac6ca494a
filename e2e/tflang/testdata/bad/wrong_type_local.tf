# want: main.tf:11:17 Incorrect attribute value type
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
locals {
  k = "x"
}
resource "random_id" "i" {
  byte_length = 4
  keepers     = local.k
}
