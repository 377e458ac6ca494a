variable "name" { type = string }
variable "title" { type = string }
variable "pages" { type = list(string) }
variable "extra" {
  type    = bool
  default = false
}

resource "terraform_data" "page" {
  for_each = toset(var.pages)
  input    = "${var.name}/${each.key}"
}

resource "random_pet" "extra" {
  count  = var.extra ? 1 : 0
  length = 2
}

output "hosts" {
  value = [for p in sort(var.pages) : "${p}.${var.name}.example.com"]
}

output "index_name" {
  value = var.name
}

output "page_ids" {
  value = { for k, v in terraform_data.page : k => v.output }
}
