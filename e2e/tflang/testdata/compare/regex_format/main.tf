# String parsing and formatting as modules do it: regex with named and
# numbered captures (a map, a list, a string), regexall to find every
# match, replace with back-references, format verbs with widths,
# precisions and explicit argument indexes, formatlist over lists and
# scalars, and names parsed from ARNs and image references.
variable "arns" {
  type = list(string)
  default = [
    "arn:aws:iam::111122223333:role/admin",
    "arn:aws:s3:::my-bucket/path/to/key",
    "arn:aws:lambda:eu-west-1:444455556666:function:worker:3",
  ]
}

variable "images" {
  type    = list(string)
  default = ["nginx", "nginx:1.27", "ghcr.io/org/app:v2.1.0", "registry:5000/team/tool@sha256:abc123"]
}

locals {
  arn_re   = "^arn:(?P<partition>[^:]+):(?P<service>[^:]+):(?P<region>[^:]*):(?P<account>[^:]*):(?P<resource>.+)$"
  arns     = [for a in var.arns : regex(local.arn_re, a)]
  image_re = "^(?:(?P<registry>[^/]+[.:][^/]*)/)?(?P<repo>[^:@]+)(?::(?P<tag>[^@]+))?(?:@(?P<digest>.+))?$"
  images   = { for i in var.images : i => regex(local.image_re, i) }
  versions = [for v in ["v1.2.3", "2.0", "release-10.4.1-rc1"] : regexall("\\d+", v)]
  semver   = regex("(\\d+)\\.(\\d+)\\.(\\d+)", "app v12.3.45 build")
  dashes   = replace("Hello World  Again", "/\\s+/", "-")
  swapped  = replace("first=1;second=2", "/(\\w+)=(\\d+)/", "$2:$1")
  snake    = lower(replace("someCamelCaseName", "/([a-z])([A-Z])/", "$1_$2"))
  ids      = formatlist("%s-%03d", ["web", "db", "cache"], [1, 20, 300])
  hosts    = formatlist("%s.%s.internal", ["a", "b"], "eu")
  table    = [for r in [["name", "size"], ["alpha", 10.5], ["b", 200]] : format("%-8s|%8v|", r[0], r[1])]
  numbers  = format("%d %5.1f %-5d| %x %o %e %t %q", 42, 3.14159, 7, 255, 8, 1234.5, false, "q")
  indexed  = format("%[2]s-%[1]s-%[2]s", "a", "b")
  percent  = format("%d%% of %s", 50, "total")
  json     = format("%#v", { a = [1, "x"], b = null })
  matches  = { for w in ["alpha", "beta", "gamma", "Delta"] : w => can(regex("^[a-z]+a$", w)) }
  emails   = regexall("[\\w.]+@[\\w.]+", "mail ana@example.com or bo.x@test.org today")
}

resource "terraform_data" "parsed" {
  for_each = local.images
  input = {
    repo   = each.value.repo
    tag    = coalesce(each.value.tag, "latest")
    digest = each.value.digest
  }
}

resource "local_file" "table" {
  filename = "${path.module}/out/table.txt"
  content  = join("\n", local.table)
}

output "arns" {
  value = local.arns
}

output "images" {
  value = { for k, r in terraform_data.parsed : k => r.output }
}

output "versions" {
  value = local.versions
}

output "strings" {
  value = {
    semver  = local.semver
    dashes  = local.dashes
    swapped = local.swapped
    snake   = local.snake
    numbers = local.numbers
    indexed = local.indexed
    percent = local.percent
    json    = local.json
  }
}

output "lists" {
  value = {
    ids    = local.ids
    hosts  = local.hosts
    emails = local.emails
  }
}

output "matches" {
  value = local.matches
}

output "table" {
  value = local_file.table.content
}
