variable "name" { type = string }

resource "local_file" "mine" {
  filename = "${path.root}/probe-${var.name}.txt"
  content  = "probe ${var.name}"
}

check "mine" {
  data "local_file" "read" {
    filename = local_file.mine.filename
  }
  assert {
    condition     = data.local_file.read.content == "probe ${var.name}"
    error_message = "probe-${var.name}.txt holds ${data.local_file.read.content}"
  }
}

output "content" { value = local_file.mine.content }
