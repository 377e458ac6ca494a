variable "name" {
  type = string
}

variable "admin_password" {
  type      = string
  sensitive = true
}

variable "users" {
  type = map(object({ role = string, password = string }))
}

resource "local_sensitive_file" "pgpass" {
  filename = "${path.root}/out/${var.name}.pgpass"
  content  = join("\n", concat(["*:*:${var.name}:admin:${var.admin_password}"], [for u, v in var.users : "*:*:${var.name}:${u}:${v.password}"]))
}

resource "terraform_data" "user" {
  for_each = var.users
  input    = { role = each.value.role, login = each.key }
}

output "roles" {
  value = { for k, u in terraform_data.user : k => u.output.role }
}

output "users" {
  value     = { for k, u in var.users : k => u.password }
  sensitive = true
}

output "pgpass_lines" {
  value = length(split("\n", local_sensitive_file.pgpass.content))
}
