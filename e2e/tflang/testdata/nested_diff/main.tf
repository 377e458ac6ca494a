# TestNestedDiffMatchesTerraform: step2.tf.txt changes a map, a list and
# a nested block of terraform_data, and replaces tls_self_signed_cert.c
# through an attribute of its subject block, and replaces two local_files
# whose content stops and starts being sensitive.
resource "tls_private_key" "k" {
  algorithm = "ED25519"
}

resource "tls_self_signed_cert" "c" {
  private_key_pem       = tls_private_key.k.private_key_pem
  validity_period_hours = 24
  allowed_uses          = ["key_encipherment", "digital_signature"]
  dns_names             = ["a.example.com", "b.example.com"]

  subject {
    common_name  = "a.example.com"
    organization = "Plinth"
  }
}

resource "terraform_data" "d" {
  input = {
    tags  = { a = "1", b = "2", c = "3" }
    names = ["x", "y", "z"]
    n     = 1
  }
}

resource "time_static" "t" {
  triggers = { a = "1", b = "2" }
}

resource "random_pet" "p" {
  keepers = { a = "1", b = "2", c = "3" }
}

# A value that stops being sensitive, and one that becomes sensitive:
# terraform warns above each attribute.
resource "random_password" "pw" {
  length = 8
}

resource "local_file" "was_secret" {
  filename = "${path.module}/was_secret.txt"
  content  = random_password.pw.result
}

resource "local_file" "now_secret" {
  filename = "${path.module}/now_secret.txt"
  content  = "plain"
}
