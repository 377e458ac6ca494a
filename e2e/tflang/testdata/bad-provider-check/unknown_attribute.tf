# want: main.tf:5:3 X
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
  colour   = "red"
}
