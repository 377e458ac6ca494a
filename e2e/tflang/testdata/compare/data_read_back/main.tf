resource "local_file" "src" {
  for_each = { a = "apple", b = "banana" }
  filename = "${each.key}.txt"
  content  = "${each.value}\n"
}

data "local_file" "read" {
  for_each = local_file.src
  filename = each.value.filename
}

data "local_file" "static" {
  filename = "${path.module}/input.txt"
}

output "read" { value = { for k, d in data.local_file.read : k => trimspace(d.content) } }
output "static" { value = data.local_file.static.content }
output "static_b64" { value = data.local_file.static.content_base64 }
