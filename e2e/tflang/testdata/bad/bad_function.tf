# want: main.tf:4:14 Call to unknown function
resource "local_file" "base" {
  filename = "base.txt"
  content  = nosuchfn("x")
}
