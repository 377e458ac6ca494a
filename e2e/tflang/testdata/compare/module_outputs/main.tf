module "pet" {
  source = "./pet"
  count  = 2
  prefix = "m${count.index}"
}

module "doc" {
  source = "./doc"
  text   = join(",", module.pet[*].length)
}

output "lengths" { value = module.pet[*].length }
output "rand_ids" { value = module.pet[*].id }
output "doc" { value = module.doc.content }
output "doc_sum" { value = module.doc.sha }
