# want: main.tf:3:14 Invalid count argument
resource "local_file" "base" {
  count    = -1
  filename = "base.txt"
  content  = "base"
}
