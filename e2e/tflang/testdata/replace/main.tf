# TestReplaceWithDependents: changing var.v replaces random_string.a
# (keepers) destroy-first; terraform_data.upd then only updates, and
# local_file.rep, whose content forces replacement, is replaced.
variable "v" {
  type    = string
  default = "1"
}

resource "random_string" "a" {
  length  = 8
  special = false
  keepers = { v = var.v }
}

resource "terraform_data" "upd" {
  input = random_string.a.result
}

resource "local_file" "rep" {
  content  = random_string.a.result
  filename = "${path.module}/out.txt"
}

output "same" {
  value = terraform_data.upd.output == local_file.rep.content
}
