# count, for_each over a map and over a set, splats and references
# between instances.
variable "sizes" {
  default = { small = 1, large = 3 }
}

resource "random_integer" "n" {
  count = 3
  min   = count.index
  max   = count.index
}

resource "terraform_data" "by_size" {
  for_each = var.sizes
  input    = "${each.key}=${each.value}"
}

resource "terraform_data" "by_name" {
  for_each = toset(["x", "y", "z"])
  input    = upper(each.value)
}

output "ints" { value = random_integer.n[*].result }
output "sizes" { value = { for k, v in terraform_data.by_size : k => v.output } }
output "names" { value = sort([for v in terraform_data.by_name : v.output]) }
output "count" { value = length(random_integer.n) }
