# The tls provider is configured from an ephemeral variable and an
# ephemeral resource: a destroy needs both again, as terraform does.
variable "proxy_user" {
  type      = string
  ephemeral = true
}

ephemeral "random_password" "pw" {
  length  = 12
  special = false
}

provider "tls" {
  proxy {
    url      = "http://proxy.invalid:3128"
    username = var.proxy_user
    password = ephemeral.random_password.pw.result
  }
}

resource "tls_private_key" "k" {
  algorithm = "ED25519"
}

output "algorithm" {
  value = tls_private_key.k.algorithm
}
