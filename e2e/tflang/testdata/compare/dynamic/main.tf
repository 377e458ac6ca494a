variable "subjects" {
  default = [
    { cn = "example.com", org = "Example" },
  ]
}

resource "tls_cert_request" "csr" {
  private_key_pem = file("key.pem")
  dynamic "subject" {
    for_each = var.subjects
    content {
      common_name  = subject.value.cn
      organization = subject.value.org
    }
  }
}

resource "local_file" "list" {
  filename = "list.txt"
  content  = join(",", [for s in var.subjects : s.cn])
}

output "csr_subject_cn" { value = tls_cert_request.csr.subject[0].common_name }
output "list" { value = local_file.list.content }
