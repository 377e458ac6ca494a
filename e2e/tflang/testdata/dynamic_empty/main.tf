# A dynamic block over a list that the second plan empties: terraform
# shows the block removed ("- subject {", forcing replacement), and no
# "subject = []"; the certificate's hidden write-only attribute counts
# in the alignment of the names.
variable "names" {
  type    = list(string)
  default = ["a"]
}

resource "tls_private_key" "k" {
  algorithm = "ED25519"
}

resource "tls_cert_request" "r" {
  private_key_pem = tls_private_key.k.private_key_pem

  dynamic "subject" {
    for_each = var.names
    content {
      common_name = subject.value
    }
  }
}

resource "tls_cert_request" "none" {
  private_key_pem = tls_private_key.k.private_key_pem

  dynamic "subject" {
    for_each = var.names
    content {
      common_name = "${subject.value}-x"
    }
  }
}
