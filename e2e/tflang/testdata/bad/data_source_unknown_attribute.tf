# want: main.tf:7:3 Unsupported argument
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
data "local_file" "read" {
  file_name = "base.txt"
}
