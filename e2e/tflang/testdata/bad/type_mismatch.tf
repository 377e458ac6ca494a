# want: main.tf:4:14 Invalid operand
resource "local_file" "base" {
  filename = "base.txt"
  content  = "a" + 1
}
