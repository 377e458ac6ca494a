variable "db_password" {
  type      = string
  default   = "hunter2-hunter2"
  sensitive = true
}

variable "settings" {
  type = object({ user = string, token = string })
  default = { user = "admin", token = "t0k3n" }
  sensitive = true
}

resource "local_sensitive_file" "secret" {
  filename = "secret.txt"
  content  = "password=${var.db_password}"
}

resource "local_file" "public" {
  filename = "public.txt"
  content  = "user is ${nonsensitive(var.settings.user)}"
}

output "password" {
  value     = var.db_password
  sensitive = true
}
output "settings" {
  value     = var.settings
  sensitive = true
}
output "public" { value = local_file.public.content }
output "secret_file" { value = local_sensitive_file.secret.filename }
output "is_sensitive" { value = issensitive(var.db_password) }
output "length" { value = nonsensitive(length(var.db_password)) }
