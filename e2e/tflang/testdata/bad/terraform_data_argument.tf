# want: main.tf:7:3 Unsupported argument
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
resource "terraform_data" "d" {
  triggers = "x"
}
