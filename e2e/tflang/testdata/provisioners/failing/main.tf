# A provisioner that fails (the resource is tainted) and one that fails
# with on_failure = continue (a warning; the resource is kept).
resource "random_pet" "bad" {
  provisioner "local-exec" { command = "echo failing; exit 3" }
}

resource "random_pet" "soft" {
  provisioner "local-exec" {
    command    = "exit 4"
    on_failure = continue
  }
}
