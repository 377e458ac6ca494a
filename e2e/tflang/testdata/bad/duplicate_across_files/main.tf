# want: other.tf:1:1 Duplicate resource declaration
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
