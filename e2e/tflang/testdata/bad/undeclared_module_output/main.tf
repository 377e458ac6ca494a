# want: main.tf:9:30 Unsupported attribute
module "m" {
  source = "./mod"
}
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
output "o" { value = module.m.nope }
