# The same resources as plinth.yaml beside this file, for terraform.
terraform {
  required_providers {
    plinth     = { source = "plinth-iac/plinth" }
    plinthtest = { source = "plinth-iac/plinthtest" }
  }
}
resource "plinth_random_integer" "i" {
  min  = 1
  max  = 1000000
  seed = "plinth"
}
resource "plinth_fs_file" "f" {
  path    = "out.txt"
  content = "compare me\n"
}
resource "plinthtest_thing" "thing" {
  name = "t"
}
