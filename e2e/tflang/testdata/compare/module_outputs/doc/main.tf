variable "text" { type = string }

resource "local_file" "d" {
  filename = "${path.root}/doc.txt"
  content  = var.text
}

output "content" { value = local_file.d.content }
output "sha" { value = local_file.d.content_sha1 }
