variable "name" { type = string }
variable "site" {
  type = object({
    title = string
    pages = list(string)
  })
}

locals {
  dir = "${path.module}/out/${var.name}"
}

resource "local_file" "page" {
  for_each = toset(var.site.pages)
  filename = "${local.dir}/${each.key}.html"
  content  = "<h1>${var.site.title}</h1>${each.key}"
}

output "summary" { value = "${var.site.title}:${length(local_file.page)}" }
output "rel" { value = local.dir }
