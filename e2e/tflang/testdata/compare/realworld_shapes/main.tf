# Type unification and nulls as real configurations meet them:
# conditionals over collections of different shapes, null-valued
# optional attributes, setproduct/flatten for nested loops, nested
# dynamic blocks, and element() over a shuffled list.
variable "envs" {
  type = map(object({
    cidr     = string
    replicas = optional(number)
    tags     = optional(map(string), {})
  }))
  default = {
    dev  = { cidr = "10.0.0.0/16" }
    prod = { cidr = "10.1.0.0/16", replicas = 3, tags = { tier = "gold" } }
  }
}

variable "maybe" {
  type    = string
  default = null
}

locals {
  subnets = flatten([
    for env, e in var.envs : [
      for i in range(coalesce(e.replicas, 1)) : {
        key  = "${env}-${i}"
        cidr = cidrsubnet(e.cidr, 8, i)
        tags = merge({ env = env }, e.tags)
      }
    ]
  ])
  pairs   = setproduct(["a", "b"], [1, 2])
  choice  = var.maybe == null ? [] : [var.maybe]
  mixed   = length(local.choice) > 0 ? local.choice : ["default"]
  by_key  = { for s in local.subnets : s.key => s }
}

resource "terraform_data" "subnet" {
  for_each = local.by_key
  input    = each.value
}

resource "random_shuffle" "az" {
  input        = ["a", "b", "c"]
  result_count = 3
}

resource "tls_private_key" "k" {
  algorithm = "ED25519"
}

resource "tls_self_signed_cert" "c" {
  private_key_pem       = tls_private_key.k.private_key_pem
  validity_period_hours = 12
  allowed_uses          = ["key_encipherment", "digital_signature"]
  dynamic "subject" {
    for_each = { main = { cn = "svc.local", ous = ["a", "b"] } }
    content {
      common_name         = subject.value.cn
      organizational_unit = join(",", subject.value.ous)
    }
  }
}

output "subnet_keys" {
  value = sort(keys(terraform_data.subnet))
}

output "subnet_cidrs" {
  value = { for k, v in terraform_data.subnet : k => v.output.cidr }
}

output "prod_tags" {
  value = terraform_data.subnet["prod-0"].output.tags
}

output "pairs" {
  value = local.pairs
}

output "mixed" {
  value = local.mixed
}

output "replicas" {
  value = { for k, e in var.envs : k => e.replicas }
}

output "rand_az" {
  value = element(random_shuffle.az.result, 4)
}

output "az_count" {
  value = length(random_shuffle.az.result)
}

output "cert_uses" {
  value = tls_self_signed_cert.c.allowed_uses
}

output "cert_cn" {
  value = tls_self_signed_cert.c.subject[0].common_name
}

output "nulls" {
  value = { a = null, b = "x", c = var.maybe }
}

output "tuple" {
  value = [1, "two", true, null]
}
