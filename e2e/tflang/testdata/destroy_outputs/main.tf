# A destroy plan lists every output going away under "Changes to
# Outputs:", as terraform plan -destroy does: lists, objects whose null
# attributes go with them, a sensitive value, a string of several lines,
# one line ending in a line break (a heredoc too).
resource "terraform_data" "d" {
  input = { name = "a", tags = { k = "v" } }
}

output "list" {
  value = [1, 2]
}

output "object" {
  value = { a = "x", b = null, c = [], d = { e = null } }
}

output "subjects" {
  value = [{ cn = "x", ou = null }]
}

output "name" {
  value = terraform_data.d.output.name
}

output "secret" {
  value     = "s"
  sensitive = true
}

output "lines" {
  value = "one\ntwo\n"
}

output "key" {
  value = "ssh-ed25519 AAAA\n"
}
