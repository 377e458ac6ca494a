resource "terraform_data" "stubborn" {
  input = "x"

  provisioner "local-exec" {
    when    = destroy
    command = "exit 3"
  }
}
