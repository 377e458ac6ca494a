# want: main.tf:4:3 Invalid combination of "count" and "for_each"
resource "local_file" "base" {
  count    = 1
  for_each = toset(["a"])
  filename = "base.txt"
  content  = "base"
}
