resource "local_file" "base" {
  filename = "other.txt"
  content  = "other"
}
