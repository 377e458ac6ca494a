variable "label" {
  type    = string
  default = "mid"
}

resource "local_file" "m" {
  filename = "${path.root}/mid.txt"
  content  = "${var.label} after first"
}

output "content" { value = local_file.m.content }
