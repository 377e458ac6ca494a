# A data source is sensitive where its arguments were and where its
# provider's schema says (terraform's rule): tls_public_key's
# public_key_openssh, computed from a sensitive private key, is not.
resource "tls_private_key" "k" {
  algorithm = "ED25519"
}

data "tls_public_key" "p" {
  private_key_pem = tls_private_key.k.private_key_pem
}

variable "name" {
  type      = string
  default   = "note.txt"
  sensitive = true
}

resource "local_file" "note" {
  filename = var.name
  content  = "hello"
}

data "local_file" "note" {
  filename = local_file.note.filename
}

output "rand_pub" { value = data.tls_public_key.p.public_key_openssh }
output "algorithm" { value = data.tls_public_key.p.algorithm }
output "same_key" { value = data.tls_public_key.p.public_key_openssh == tls_private_key.k.public_key_openssh }
output "pub_sensitive" { value = issensitive(data.tls_public_key.p.public_key_openssh) }
output "pem_sensitive" { value = issensitive(data.tls_public_key.p.private_key_pem) }
output "content" { value = data.local_file.note.content }
output "name_sensitive" { value = issensitive(data.local_file.note.filename) }
output "content_sensitive" { value = issensitive(data.local_file.note.content) }
