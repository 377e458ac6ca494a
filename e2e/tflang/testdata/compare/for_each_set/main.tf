variable "files" {
  type    = set(string)
  default = ["b.txt", "a.txt", "c.txt"]
}

resource "local_file" "f" {
  for_each = var.files
  filename = each.key
  content  = "name=${each.value} key=${each.key}"
}

resource "terraform_data" "per_file" {
  for_each = local_file.f
  input    = each.value.content
}

output "contents" { value = { for k, v in terraform_data.per_file : k => v.output } }
output "keys" { value = keys(local_file.f) }
output "set" { value = var.files }
