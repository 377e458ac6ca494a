variable "enabled" { default = true }
variable "disabled" { default = false }
variable "size" { default = 5 }

resource "local_file" "on" {
  count    = var.enabled ? 1 : 0
  filename = "on.txt"
  content  = var.size > 3 ? "big" : "small"
}

resource "local_file" "off" {
  count    = var.disabled ? 1 : 0
  filename = "off.txt"
  content  = "never"
}

output "on" { value = one(local_file.on[*].content) }
output "off" { value = one(local_file.off[*].content) }
output "off_count" { value = length(local_file.off) }
output "nested" { value = var.size > 10 ? "huge" : var.size > 3 ? "big" : "small" }
output "null_default" { value = var.disabled ? "x" : null }
output "typed" { value = var.enabled ? [1, 2] : [] }
