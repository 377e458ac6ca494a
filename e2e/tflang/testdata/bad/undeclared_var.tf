# want: main.tf:4:14 Reference to undeclared input variable
resource "local_file" "base" {
  filename = "base.txt"
  content  = var.missing
}
