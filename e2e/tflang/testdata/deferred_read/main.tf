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

# Its filename refers to local_file.f's ID, not known until apply: the
# plan names the other reason.
data "local_file" "u" {
  filename = "${path.module}/${local_file.f.id}.txt"
}
