# A configuration whose data source reads a file that is not there and
# whose module makes a random pet: the test files override the read
# (override_data), the module (override_module) and resources
# (override_resource, override_during, overrides inside mock_provider),
# and run refresh-only plans.
variable "name" {
  type    = string
  default = "x"
}

data "local_file" "cfg" {
  filename = "${path.module}/missing.txt"
}

module "child" {
  source = "./child"
  name   = var.name
}

resource "terraform_data" "d" {
  input = data.local_file.cfg.content
}

resource "terraform_data" "many" {
  count = 2
  input = count.index
}

output "content" {
  value = data.local_file.cfg.content
}

output "sha" {
  value = data.local_file.cfg.content_sha1
}

output "child_id" {
  value = module.child.id
}

output "child_other" {
  value = module.child.other
}

output "d" {
  value = terraform_data.d.output
}
