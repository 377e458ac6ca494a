# Real-world shapes: a module called with for_each over a map of
# objects, templatefile with for loops, dynamic blocks with iterator,
# count with a conditional, for_each over a set built from attributes
# known at plan time, one(), splats over sets of objects.
variable "sites" {
  type = map(object({
    title = string
    pages = list(string)
    extra = optional(bool, false)
  }))
  default = {
    alpha = { title = "Alpha", pages = ["index", "about"] }
    beta  = { title = "Beta", pages = ["index"], extra = true }
  }
}

variable "enable_key" {
  type    = bool
  default = true
}

module "site" {
  source   = "./modules/site"
  for_each = var.sites
  name     = each.key
  title    = each.value.title
  pages    = each.value.pages
  extra    = each.value.extra
}

resource "tls_private_key" "ca" {
  count     = var.enable_key ? 1 : 0
  algorithm = "ECDSA"
}

locals {
  subjects = [
    { cn = "example.com", org = "Example" },
  ]
}

resource "tls_cert_request" "req" {
  count           = length(tls_private_key.ca)
  private_key_pem = tls_private_key.ca[count.index].private_key_pem
  dns_names       = sort(flatten([for k, m in module.site : m.hosts]))
  dynamic "subject" {
    for_each = local.subjects
    iterator = s
    content {
      common_name  = s.value.cn
      organization = s.value.org
    }
  }
}

resource "local_file" "index" {
  for_each = toset([for k, m in module.site : m.index_name])
  filename = "${path.module}/out/${each.key}.txt"
  content  = templatefile("${path.module}/templates/index.tftpl", { sites = var.sites, name = each.key })
}

resource "terraform_data" "set" {
  for_each = toset(["x", "y"])
  input    = { name = each.key, size = length(each.key) }
}

output "hosts" {
  value = sort(flatten([for m in module.site : m.hosts]))
}

output "one_key" {
  value = one(tls_private_key.ca[*].algorithm)
}

output "no_key" {
  value = one([])
}

output "set_splat" {
  value = sort([for d in values(terraform_data.set) : d.output.name])
}

output "subject_cn" {
  value = one(tls_cert_request.req[*].subject[0].common_name)
}

output "files" {
  value = sort([for f in local_file.index : basename(f.filename)])
}

output "index_alpha" {
  value = local_file.index["alpha"].content
}

output "try_unknown" {
  value = try(tls_private_key.ca[0].public_key_pem != "", false)
}

output "can_unknown" {
  value = can(regex("BEGIN", tls_private_key.ca[0].public_key_pem))
}

output "secret" {
  value     = sensitive("hidden-${length(var.sites)}")
  sensitive = true
}

output "unsecret" {
  value = nonsensitive(sensitive("shown"))
}

output "conditional_count" {
  value = length(tls_cert_request.req)
}
