# want: main.tf:9:3 Unsupported block type
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
resource "tls_cert_request" "csr" {
  private_key_pem = "x"
  subject { common_name = "a" }
  subjekt { common_name = "b" }
}
