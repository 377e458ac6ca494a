# want: main.tf:3:14 Invalid for_each argument
resource "local_file" "base" {
  for_each = ["a", "b"]
  filename = "base.txt"
  content  = "base"
}
