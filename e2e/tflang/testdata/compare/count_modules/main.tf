variable "names" { default = ["red", "green", "blue"] }

module "box" {
  source = "./box"
  count  = length(var.names)
  name   = var.names[count.index]
  index  = count.index
}

output "labels" { value = module.box[*].label }
output "second" { value = module.box[1].label }
output "by_name" { value = { for b in module.box : b.name => b.label } }
