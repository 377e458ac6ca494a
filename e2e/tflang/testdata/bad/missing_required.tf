# want: main.tf:6:34 Missing required argument
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
resource "local_file" "nameless" {
  content = "no filename"
}
