# TestCreateBeforeDestroyNewFilename: changing var.name replaces
# local_file.f create-before-destroy; its content does not change, so the
# new file gets the old ID (the content's hash), but the old file is a
# different file and is deleted.
variable "name" {
  type    = string
  default = "a"
}

resource "local_file" "f" {
  content  = "same content\n"
  filename = "${path.module}/out/${var.name}.txt"

  lifecycle {
    create_before_destroy = true
  }
}
