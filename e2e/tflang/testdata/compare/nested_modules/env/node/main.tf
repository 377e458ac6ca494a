variable "env" { type = string }
variable "index" { type = number }

resource "local_file" "f" {
  filename = "${path.root}/${var.env}-${var.index}.txt"
  content  = "${var.env} node ${var.index}"
}

output "file" { value = basename(local_file.f.filename) }
output "name" { value = "${var.env}-${var.index}" }
