variable "maybe" {
  type    = string
  default = null
}

resource "terraform_data" "d" {
  for_each = { a = { n = 1 }, b = { n = 2 } }
  input    = each.value.n * 10
}

data "local_file" "none" {
  count    = 0
  filename = "nope"
}

output "null_out" { value = var.maybe }
output "empty_list" { value = [] }
output "empty_map" { value = {} }
output "one_none" { value = one(data.local_file.none[*].content) }
output "vals" { value = values(terraform_data.d)[*].output }
output "keys" { value = keys(terraform_data.d) }
output "tuple" { value = [1, "a", true] }
output "obj_null" { value = { a = null, b = 1 } }
output "try_attr" { value = try(terraform_data.d["z"].output, "missing") }
output "can_re" { value = can(regex("^[a-z]+$", "abc")) }
output "nullable" { value = coalesce(var.maybe, "dflt") }
