locals {
  users = {
    alice = { team = "red", age = 31, admin = true }
    bob   = { team = "blue", age = 25, admin = false }
    carol = { team = "red", age = 42, admin = false }
    dave  = { team = "green", age = 19, admin = true }
  }
  tags = toset(["b", "a", "c", "a"])
}

output "by_team" { value = { for name, u in local.users : u.team => name... } }
output "admins" { value = [for name, u in local.users : name if u.admin] }
output "older" { value = { for name, u in local.users : upper(name) => u.age if u.age > 24 } }
output "from_set" { value = [for t in local.tags : "tag-${t}"] }
output "indexed" { value = { for i, v in ["x", "y", "z"] : v => i } }
output "ages_by_team" { value = { for name, u in local.users : u.team => u.age... if u.age > 20 } }
output "nested" { value = [for t, names in { for n, u in local.users : u.team => n... } : "${t}:${join("+", names)}"] }

resource "terraform_data" "teams" {
  for_each = { for name, u in local.users : u.team => name... }
  input    = each.value
}

output "teams" { value = { for k, t in terraform_data.teams : k => t.output } }
