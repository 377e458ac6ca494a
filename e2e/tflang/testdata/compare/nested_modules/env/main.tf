variable "name" { type = string }
variable "replicas" { type = number }

module "node" {
  source = "./node"
  count  = var.replicas
  env    = var.name
  index  = count.index
}

output "files" { value = module.node[*].file }
output "names" { value = [for n in module.node : n.name] }
