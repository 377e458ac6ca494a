# heredocs, template directives, templatefile-free interpolation.
variable "items" {
  default = ["apple", "pear"]
}

locals {
  doc = <<-EOT
    Items:
    %{for i, item in var.items~}
    ${i}: ${item}
    %{endfor~}
    %{if length(var.items) > 1}many%{else}few%{endif}
  EOT
  joined = join(",", [for s in var.items : "\"${s}\""])
}

resource "local_file" "doc" {
  filename = "${path.module}/doc.txt"
  content  = local.doc
}

output "doc" { value = local_file.doc.content }
output "joined" { value = local.joined }
output "strip" { value = "%{for s in var.items}${s} %{endfor}" }
