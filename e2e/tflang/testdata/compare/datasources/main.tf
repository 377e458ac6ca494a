resource "local_file" "src" {
  filename = "source.txt"
  content  = "written by a resource\n"
}

data "local_file" "read" {
  filename = local_file.src.filename
}

data "tls_public_key" "k" {
  private_key_pem = file("key.pem")
}

output "read" { value = data.local_file.read.content }
output "fingerprint" { value = data.tls_public_key.k.public_key_fingerprint_sha256 }
