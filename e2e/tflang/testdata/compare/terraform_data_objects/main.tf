resource "terraform_data" "cfg" {
  input = {
    name  = "alpha"
    ports = [80, 443]
    tags  = { env = "dev", team = "core" }
  }
}

resource "terraform_data" "uses" {
  input = "${terraform_data.cfg.output.name}:${join(",", terraform_data.cfg.output.ports)}"
}

data "local_file" "src" {
  filename = local_file.src.filename
  lifecycle {
    precondition {
      condition     = length(local_file.src.content) > 0
      error_message = "The source file must not be empty."
    }
  }
}

resource "local_file" "src" {
  filename = "${path.module}/src.txt"
  content  = "hello"
}

output "cfg" { value = terraform_data.cfg.output }
output "tags" { value = terraform_data.cfg.output.tags }
output "uses" { value = terraform_data.uses.output }
output "read" { value = data.local_file.src.content }
output "ns" { value = nonsensitive(sensitive("plain")) }
output "ns_map" { value = nonsensitive(sensitive({ a = 1 })) }
