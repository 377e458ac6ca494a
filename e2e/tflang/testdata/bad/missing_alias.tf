# want: main.tf:3:14 Provider configuration not present
resource "local_file" "base" {
  provider = local.west
  filename = "base.txt"
  content  = "base"
}
