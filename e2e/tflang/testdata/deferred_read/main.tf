resource "local_file" "f" {
  filename = "${path.module}/f.txt"
  content  = "hello"
}

# Both read a file created in the same configuration: the reads are left
# to apply, and the plan lists their computed attributes.
data "local_file" "r" {
  filename = local_file.f.filename
}

data "local_sensitive_file" "s" {
  filename = local_file.f.filename
}

output "content" {
  value = data.local_file.r.content
}
