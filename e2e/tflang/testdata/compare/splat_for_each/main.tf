resource "local_file" "f" {
  for_each = { a = "alpha", b = "beta", c = "gamma" }
  filename = "${each.key}.txt"
  content  = each.value
}

resource "terraform_data" "d" {
  for_each = toset(["x", "y"])
  input    = { key = each.key, upper = upper(each.value) }
}

output "contents" { value = values(local_file.f)[*].content }
output "keys" { value = keys(local_file.f) }
output "names" { value = [for f in local_file.f : f.filename] }
output "data" { value = values(terraform_data.d)[*].output.upper }
output "one" { value = local_file.f["b"].content }
