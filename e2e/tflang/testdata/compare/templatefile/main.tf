locals {
  servers = [
    { name = "web", ip = "10.0.0.1", ports = [80, 443] },
    { name = "db", ip = "10.0.0.2", ports = [5432] },
  ]
}

resource "local_file" "conf" {
  filename = "hosts.conf"
  content = templatefile("${path.module}/hosts.tftpl", {
    servers = local.servers
    title   = "Hosts"
    admin   = null
  })
}

output "conf" { value = local_file.conf.content }
output "size" { value = length(local_file.conf.content) }
