# want: main.tf:5:3 Unsupported argument
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
  colour   = "red"
}
