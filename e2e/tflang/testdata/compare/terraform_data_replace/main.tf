# A second step changes input (update in place) and triggers_replace
# (replacement): outputs follow.
resource "terraform_data" "a" {
  input            = "first"
  triggers_replace = ["one"]
}

resource "terraform_data" "b" {
  input = "${terraform_data.a.output}-b"
}

output "a" { value = terraform_data.a.output }
output "b" { value = terraform_data.b.output }
