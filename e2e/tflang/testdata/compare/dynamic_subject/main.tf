variable "subject" {
  default = {
    common_name  = "example.org"
    organization = "Example Org"
    country      = "NL"
  }
}

variable "extra_names" { default = ["www.example.org", "api.example.org"] }

resource "tls_private_key" "k" {
  algorithm   = "ECDSA"
  ecdsa_curve = "P256"
}

resource "tls_self_signed_cert" "c" {
  private_key_pem       = tls_private_key.k.private_key_pem
  validity_period_hours = 24
  allowed_uses          = ["digital_signature", "server_auth"]
  dns_names             = concat([var.subject.common_name], var.extra_names)

  dynamic "subject" {
    for_each = [var.subject]
    iterator = s
    content {
      common_name  = s.value.common_name
      organization = s.value.organization
      country      = lookup(s.value, "country", null)
    }
  }
}

output "cn" { value = tls_self_signed_cert.c.subject[0].common_name }
output "org" { value = tls_self_signed_cert.c.subject[0].organization }
output "dns" { value = tls_self_signed_cert.c.dns_names }
output "uses" { value = tls_self_signed_cert.c.allowed_uses }
output "algo" { value = tls_private_key.k.algorithm }
