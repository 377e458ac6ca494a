variable "servers" {
  type = map(object({
    size    = optional(string, "small")
    ports   = optional(list(number), [80])
    tags    = optional(map(string), {})
    enabled = optional(bool)
    disk = optional(object({
      gb   = optional(number, 10)
      kind = optional(string, "ssd")
    }), {})
  }))
  default = {
    web = { ports = [80, 443] }
    db  = { size = "large", disk = { gb = 100 }, enabled = true }
  }
}

resource "local_file" "s" {
  for_each = var.servers
  filename = "${each.key}.json"
  content  = jsonencode(each.value)
}

output "servers" { value = var.servers }
output "contents" { value = { for k, f in local_file.s : k => f.content } }
