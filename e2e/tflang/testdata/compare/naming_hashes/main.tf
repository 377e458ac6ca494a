# Resource names as naming modules derive them: a stable suffix from a
# hash of the inputs (md5, sha1, sha256, uuidv5), names cut to a
# provider's length limit, a random suffix regenerated only when its
# keepers change, and the random values' shapes (lengths, alphabets)
# checked rather than their values.
variable "components" {
  type = map(object({ max_len = number, charset = optional(string, "alnum") }))
  default = {
    "storage-account"          = { max_len = 24, charset = "lower" }
    "key-vault"                = { max_len = 24 }
    "a-very-long-function-app" = { max_len = 32 }
    "sql"                      = { max_len = 63 }
  }
}

variable "prefix" {
  type    = string
  default = "Contoso Prod EU"
}

locals {
  slug = lower(replace(var.prefix, "/[^A-Za-z0-9]+/", "-"))
  names = {
    for c, o in var.components : c => (
      o.charset == "lower"
      ? substr(replace("${local.slug}${c}", "/[^a-z0-9]/", ""), 0, o.max_len)
      : length("${local.slug}-${c}") <= o.max_len
      ? "${local.slug}-${c}"
      : "${substr("${local.slug}-${c}", 0, o.max_len - 9)}-${substr(sha1("${local.slug}-${c}"), 0, 8)}"
    )
  }
  hashes = {
    md5     = md5(local.slug)
    sha1    = sha1(local.slug)
    sha256  = sha256(local.slug)
    sha512  = substr(sha512(local.slug), 0, 32)
    b64sha  = base64sha256(local.slug)
    uuid    = uuidv5("url", "https://${local.slug}.example.com")
    uuidx   = uuidv5("x500", "CN=${local.slug}")
    crc     = substr(md5(join(",", keys(var.components))), 0, 6)
  }
}

resource "random_id" "suffix" {
  byte_length = 4
  keepers     = { prefix = local.slug }
}

resource "random_string" "s" {
  for_each = { for c, o in var.components : c => o if o.charset == "lower" }
  length   = 6
  upper    = false
  special  = false
  keepers  = { name = local.names[each.key] }
}

resource "random_uuid" "u" {}

resource "terraform_data" "named" {
  for_each = local.names
  input    = { name = each.value, length = length(each.value) }
}

output "names" {
  value = { for k, r in terraform_data.named : k => r.output }
}

output "hashes" {
  value = local.hashes
}

output "shapes" {
  value = {
    id_hex_len    = length(random_id.suffix.hex)
    id_b64_len    = length(random_id.suffix.b64_url)
    id_dec_digits = can(tonumber(random_id.suffix.dec))
    string_lower  = alltrue([for s in random_string.s : s.result == lower(s.result) && length(s.result) == 6])
    uuid_format   = can(regex("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", random_uuid.u.result))
    keepers       = random_id.suffix.keepers
  }
}

output "rand_suffix" {
  value = random_id.suffix.hex
}

output "rand_full" {
  value = { for k, s in random_string.s : k => "${local.names[k]}${s.result}" }
}
