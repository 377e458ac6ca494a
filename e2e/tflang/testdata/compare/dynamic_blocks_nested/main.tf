# dynamic blocks as modules write them: a block present or absent by a
# flag (for_each over a one-element list or an empty one), an iterator
# renamed, a block's content from a map of objects, and a certificate
# per entry of a map whose subject block comes from optional fields.
variable "certs" {
  type = map(object({
    cn           = string
    org          = optional(string)
    ou           = optional(list(string), [])
    country      = optional(string)
    uses         = optional(list(string), ["digital_signature"])
    dns          = optional(list(string), [])
    with_subject = optional(bool, true)
  }))
  default = {
    api = { cn = "api.internal", org = "Example", ou = ["platform", "edge"], dns = ["api.internal", "api"], uses = ["digital_signature", "key_encipherment", "server_auth"] }
    bare = { cn = "bare", with_subject = false }
    ops = { cn = "ops.internal", country = "NL" }
  }
}

resource "tls_private_key" "k" {
  algorithm   = "ECDSA"
  ecdsa_curve = "P256"
}

resource "tls_self_signed_cert" "c" {
  for_each              = var.certs
  private_key_pem       = tls_private_key.k.private_key_pem
  validity_period_hours = 24
  allowed_uses          = each.value.uses
  dns_names             = each.value.dns
  is_ca_certificate     = length(each.value.dns) == 0 && each.value.with_subject

  dynamic "subject" {
    for_each = each.value.with_subject ? [each.value] : []
    iterator = s
    content {
      common_name         = s.value.cn
      organization        = s.value.org
      organizational_unit = length(s.value.ou) > 0 ? join("/", s.value.ou) : null
      country             = s.value.country
    }
  }
}

resource "tls_cert_request" "r" {
  for_each        = { for k, v in var.certs : k => v if v.with_subject }
  private_key_pem = tls_private_key.k.private_key_pem
  dns_names       = each.value.dns

  dynamic "subject" {
    for_each = { only = each.value }
    content {
      common_name  = subject.value.cn
      organization = coalesce(subject.value.org, "none")
      street_address = [for i, u in subject.value.ou : "${i}:${u}"]
    }
  }
}

output "subjects" {
  value = { for k, c in tls_self_signed_cert.c : k => c.subject }
}

output "request_subjects" {
  value = { for k, r in tls_cert_request.r : k => r.subject }
}

output "ca" {
  value = { for k, c in tls_self_signed_cert.c : k => c.is_ca_certificate }
}

output "uses" {
  value = { for k, c in tls_self_signed_cert.c : k => c.allowed_uses }
}

output "rand_pem_prefix" {
  value = substr(tls_self_signed_cert.c["api"].cert_pem, 0, 27)
}
