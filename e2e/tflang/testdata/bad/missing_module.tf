# want: main.tf:2:1 Module not installed
module "gone" {
  source = "./not-there"
}
