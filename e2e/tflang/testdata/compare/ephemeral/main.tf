# Ephemeral resources: opened for the run, their values flow into locals
# and other ephemeral resources, and are never recorded or shown.
terraform {
  required_version = ">= 1.10"
  required_providers {
    random = { source = "hashicorp/random" }
    tls    = { source = "hashicorp/tls" }
  }
}

ephemeral "random_password" "db" {
  length  = 24
  special = false
}

ephemeral "tls_private_key" "key" {
  algorithm = "ED25519"
}

ephemeral "tls_public_key" "pub" {
  private_key_pem = ephemeral.tls_private_key.key.private_key_pem
}

locals {
  pw_length = length(ephemeral.random_password.db.result)
  algorithm = ephemeral.tls_private_key.key.algorithm
  # the public key is opened from the private one; its value stays ephemeral
  has_public = ephemeral.tls_public_key.pub.public_key_openssh != ""
  pw_long    = local.pw_length == 24
}

resource "terraform_data" "plain" {
  input = "kept"
}

output "plain" {
  value = terraform_data.plain.output
}

output "ephemeral_dropped" {
  value = ephemeralasnull(local.algorithm) == null
}
