# A Terraform configuration that needs no provider binary: the built-in
# terraform provider's terraform_data. TestGoldenTerraform edits it.
variable "greeting" {
  type    = string
  default = "hello"
}

variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

resource "terraform_data" "config" {
  input            = { greeting = var.greeting, size = 2 }
  triggers_replace = "v1"
}

resource "terraform_data" "copy" {
  count = 2
  input = "${terraform_data.config.output.greeting}-${count.index}"
}

resource "terraform_data" "key" {
  input = var.secret
}

resource "terraform_data" "gone" {
  input = "removed by the edit"
}

output "greetings" {
  value = terraform_data.copy[*].output
}

output "key" {
  value     = terraform_data.key.output
  sensitive = true
}
