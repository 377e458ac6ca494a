# Modules that render their files with templatefile: loops and
# conditionals with strip markers, a map iterated in key order, function
# calls inside interpolations, and a YAML document built in a template
# from yamlencode; a child module renders one template per instance.
variable "upstreams" {
  type = list(object({
    name    = string
    servers = list(string)
    weight  = optional(number)
  }))
  default = [
    { name = "app", servers = ["10.0.0.1:8080", "10.0.0.2:8080"], weight = 5 },
    { name = "api", servers = ["10.0.1.1:9000"] },
  ]
}

locals {
  routes  = { "/" = "app", "/api/" = "api" }
  nginx   = templatefile("${path.module}/templates/nginx.conf.tftpl", { name = "edge", port = 8443, upstreams = var.upstreams, routes = local.routes, headers = { "X-Frame-Options" = "DENY", "X-Env" = "prod" } })
  bare    = templatefile("${path.module}/templates/nginx.conf.tftpl", { name = "bare", port = 80, upstreams = [], routes = {}, headers = {} })
  env     = templatefile("${path.module}/templates/env.tftpl", { vars = { region = "eu", replicas = 3, debug = false, tags = ["a", "b"] }, lines = ["one", "two", "three"] })
  cloud   = templatefile("${path.module}/templates/cloud-init.yaml.tftpl", {
    hostname = "node-1"
    users    = ["ops", "dev"]
    files    = [{ path = "/etc/motd", content = "hello\n" }]
    commands = ["systemctl restart nginx", "echo \"done\""]
  })
}

module "site" {
  source   = "./site"
  for_each = { blue = 8001, green = 8002 }
  name     = each.key
  port     = each.value
}

resource "local_file" "nginx" {
  filename = "${path.module}/out/nginx.conf"
  content  = local.nginx
}

resource "local_file" "cloud" {
  filename = "${path.module}/out/cloud-init.yaml"
  content  = local.cloud
}

output "nginx" {
  value = local_file.nginx.content
}

output "bare" {
  value = local.bare
}

output "env" {
  value = local.env
}

output "cloud" {
  value = yamldecode(local_file.cloud.content)
}

output "sites" {
  value = { for k, m in module.site : k => m.rendered }
}

output "lines" {
  value = length(split("\n", local.nginx))
}
