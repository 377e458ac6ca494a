# want: main.tf:7:12 Incorrect attribute value type
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
resource "random_pet" "p" {
  length = local_file.base.content
}
