# want: main.tf:4:14 Reference to undeclared local value
resource "local_file" "base" {
  filename = "base.txt"
  content  = local.missing
}
