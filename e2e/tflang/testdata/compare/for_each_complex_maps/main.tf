# for_each and count over the shapes real modules build: a map of
# objects flattened into one instance per (group, member) pair, keys
# made from several attributes, count switched by a feature flag, a
# module instance per environment holding its own for_each, and
# references across instances by key.
variable "teams" {
  type = map(object({
    members = list(string)
    repos   = map(object({ private = bool, topics = optional(list(string), []) }))
  }))
  default = {
    platform = {
      members = ["ana", "bo"]
      repos = {
        infra = { private = true, topics = ["terraform", "aws"] }
        docs  = { private = false }
      }
    }
    data = {
      members = ["cy"]
      repos   = { pipelines = { private = true, topics = ["spark"] } }
    }
    empty = { members = [], repos = {} }
  }
}

variable "features" {
  type    = map(bool)
  default = { audit = true, backup = false }
}

locals {
  memberships = {
    for pair in flatten([
      for team, t in var.teams : [for m in t.members : { team = team, user = m }]
    ]) : "${pair.team}/${pair.user}" => pair
  }
  repos = merge([
    for team, t in var.teams : {
      for name, r in t.repos : "${team}-${name}" => merge(r, { team = team, name = name })
    }
  ]...)
  topics = distinct(flatten([for r in local.repos : r.topics]))
  by_team = { for k, r in local.repos : r.team => k... }
  private = [for k, r in local.repos : k if r.private]
}

resource "terraform_data" "membership" {
  for_each = local.memberships
  input    = "${each.value.user}@${each.value.team}"
}

resource "terraform_data" "repo" {
  for_each = local.repos
  input = {
    full_name  = "${each.value.team}/${each.value.name}"
    visibility = each.value.private ? "private" : "public"
    topics     = each.value.topics
    members    = [for k, m in terraform_data.membership : m.output if local.memberships[k].team == each.value.team]
  }
}

resource "terraform_data" "audit" {
  count = var.features.audit ? 1 : 0
  input = keys(terraform_data.repo)
}

resource "terraform_data" "backup" {
  count = var.features.backup ? length(local.private) : 0
  input = local.private[count.index]
}

module "env" {
  source   = "./env"
  for_each = toset(["dev", "prod"])
  name     = each.key
  repos    = { for k, r in local.repos : k => r.private if each.key == "prod" || !r.private }
}

output "memberships" {
  value = { for k, r in terraform_data.membership : k => r.output }
}

output "repos" {
  value = { for k, r in terraform_data.repo : k => r.output }
}

output "topics" {
  value = local.topics
}

output "by_team" {
  value = local.by_team
}

output "audit" {
  value = one(terraform_data.audit[*].output)
}

output "backup_count" {
  value = length(terraform_data.backup)
}

output "env" {
  value = { for k, m in module.env : k => m.names }
}

output "audit_splat" {
  value = terraform_data.audit[*].input
}
