# want: main.tf:7:11 Invalid count argument
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
resource "random_pet" "p" {
  count = "several"
}
