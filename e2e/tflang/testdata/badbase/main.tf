resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
