# want: main.tf:6:1 Duplicate resource declaration
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
