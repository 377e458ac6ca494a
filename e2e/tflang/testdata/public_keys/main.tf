# Key pairs whose private keys share bytes with their public keys (an
# RSA key's OpenSSH private form carries its public key; an EC key's PEM
# ends with its public point): the public values are shown whole.

resource "tls_private_key" "rsa" {
  algorithm = "RSA"
}

resource "tls_private_key" "ec" {
  algorithm   = "ECDSA"
  ecdsa_curve = "P224"
}

resource "tls_private_key" "ed" {
  algorithm = "ED25519"
}

output "rsa_pem" { value = tls_private_key.rsa.public_key_pem }
output "rsa_ssh" { value = tls_private_key.rsa.public_key_openssh }
output "ec_pem" { value = tls_private_key.ec.public_key_pem }
output "ed_pem" { value = tls_private_key.ed.public_key_pem }
output "ed_ssh" { value = tls_private_key.ed.public_key_openssh }
