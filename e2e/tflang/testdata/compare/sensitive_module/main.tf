# Sensitive values as modules pass them: a sensitive variable into a
# child module, a generated password combined into a connection string,
# sensitive values inside maps and lists (keys stay plain), nonsensitive
# on derived facts, issensitive, and outputs that must be declared
# sensitive (or not) accordingly.
variable "admin_password" {
  type      = string
  sensitive = true
  default   = "s3cr3t-Pa55"
}

variable "users" {
  type = map(object({
    role     = string
    password = optional(string)
  }))
  default = {
    app    = { role = "rw", password = "app-pw" }
    report = { role = "ro" }
  }
  sensitive = true
}

resource "random_password" "generated" {
  length  = 20
  special = false
}

module "db" {
  source         = "./db"
  name           = "orders"
  admin_password = var.admin_password
  users = {
    for k, u in nonsensitive(toset(keys(var.users))) : k => {
      role     = var.users[k].role
      password = coalesce(var.users[k].password, random_password.generated.result)
    }
  }
}

locals {
  conn = "postgres://admin:${var.admin_password}@db.internal:5432/orders"
  mixed = {
    host     = "db.internal"
    password = var.admin_password
  }
}

resource "terraform_data" "conn" {
  input = {
    url  = local.conn
    host = local.mixed.host
  }
}

output "conn" {
  value     = terraform_data.conn.output
  sensitive = true
}

output "host" {
  value = local.mixed.host
}

output "password_length" {
  value = nonsensitive(length(var.admin_password))
}

output "sensitivity" {
  value = {
    password  = issensitive(var.admin_password)
    host      = issensitive(local.mixed.host)
    mixed_pwd = issensitive(local.mixed.password)
    generated = issensitive(random_password.generated.result)
    length    = issensitive(length(var.admin_password))
    hash      = issensitive(sha256(var.admin_password))
  }
}

output "user_roles" {
  value = nonsensitive({ for k, r in module.db.roles : k => r })
}

output "rand_users" {
  value     = module.db.users
  sensitive = true
}

output "admin_hash" {
  value     = sha256(var.admin_password)
  sensitive = true
}

output "masked" {
  value = nonsensitive(replace(var.admin_password, "/[^-]/", "*"))
}
