resource "local_file" "first" {
  filename = "first.txt"
  content  = "first"
}

module "mid" {
  source     = "./mid"
  depends_on = [local_file.first]
}

resource "local_file" "last" {
  filename   = "last.txt"
  content    = "last"
  depends_on = [module.mid]
}

resource "terraform_data" "after" {
  input      = "after"
  depends_on = [local_file.last, module.mid]
}

output "mid" { value = module.mid.content }
output "after" { value = terraform_data.after.output }
