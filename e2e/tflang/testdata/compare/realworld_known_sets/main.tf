# for_each over a set of resource attributes known at plan time (values
# from configuration), try() and can() over values unknown until apply,
# sensitive variables through resources and nonsensitive() out again,
# splats over for_each resources, and a conditional count on a variable.
variable "password" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

variable "files" {
  type    = list(string)
  default = ["a", "b", "c"]
}

resource "local_file" "f" {
  count    = length(var.files)
  filename = "${path.module}/out/${var.files[count.index]}.txt"
  content  = upper(var.files[count.index])
}

resource "terraform_data" "by_name" {
  # filenames come from configuration: known while planning
  for_each = toset(local_file.f[*].filename)
  input    = basename(each.key)
}

resource "random_pet" "p" {
  count  = length(var.files) > 2 ? 2 : 0
  length = count.index + 1
}

resource "terraform_data" "secret" {
  input = var.password
}

locals {
  pets     = random_pet.p[*].id
  by_len   = { for p in random_pet.p : tostring(p.length) => p.length }
  first_id = try(random_pet.p[0].id, "none")
  merged   = merge({ a = 1, b = 2 }, { b = 3, c = 4 })
}

output "names" {
  value = sort([for d in terraform_data.by_name : d.output])
}

output "keys" {
  value = sort([for k, d in terraform_data.by_name : basename(k)])
}

output "lengths" {
  value = local.by_len
}

output "has_first" {
  value = local.first_id != "none"
}

output "can_index" {
  value = can(random_pet.p[5].id)
}

output "pet_count" {
  value = length(local.pets)
}

output "password_length" {
  value = nonsensitive(length(terraform_data.secret.output))
}

output "merged" {
  value = local.merged
}

output "zipped" {
  value = zipmap(var.files, local_file.f[*].content)
}

output "lookup" {
  value = lookup(local.merged, "z", coalesce("", "fallback"))
}

output "content_md5" {
  value = local_file.f[0].content_md5
}
