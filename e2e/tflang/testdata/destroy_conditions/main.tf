# terraform's destroy evaluates the configuration again but enforces no
# precondition, postcondition or check assertion: with ok = false it
# still destroys. A variable's validation it does enforce.
variable "ok" {
  type    = bool
  default = true
}

variable "v" {
  type    = string
  default = "good"
  validation {
    condition     = var.v != "bad"
    error_message = "v must not be bad."
  }
}

resource "tls_private_key" "k" {
  algorithm = "ED25519"
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "resource precondition"
    }
    postcondition {
      condition     = var.ok
      error_message = "resource postcondition"
    }
  }
}

data "tls_public_key" "p" {
  private_key_pem = tls_private_key.k.private_key_pem
  lifecycle {
    postcondition {
      condition     = var.ok
      error_message = "data source postcondition"
    }
  }
}

output "pub" {
  value = data.tls_public_key.p.public_key_openssh
  precondition {
    condition     = var.ok
    error_message = "output precondition"
  }
}

check "c" {
  assert {
    condition     = var.ok
    error_message = "check assertion"
  }
}
