# terraform_remote_state reads another configuration's local state.
data "terraform_remote_state" "net" {
  backend = "local"
  config = {
    path = "${path.module}/upstream.tfstate"
  }
  defaults = {
    region = "nowhere"
    name   = "overridden"
  }
}


resource "terraform_data" "uses" {
  input = data.terraform_remote_state.net.outputs.name
}

output "name" { value = data.terraform_remote_state.net.outputs.name }
output "ports" { value = data.terraform_remote_state.net.outputs.ports }
output "region" { value = data.terraform_remote_state.net.outputs.region }
output "uses" { value = terraform_data.uses.output }
