variable "token" {
  type      = string
  default   = "s3cr3t"
  sensitive = true
}

resource "random_password" "pw" {
  length = 12
}

resource "local_file" "f" {
  filename = "token.txt"
  content  = "token=${var.token}"
}

output "token" {
  value     = var.token
  sensitive = true
}

output "token_len" { value = length(nonsensitive(var.token)) }
output "rand_pw" {
  value     = random_password.pw.result
  sensitive = true
}
