# A resource is sensitive where its provider's schema says and where its
# arguments were, path by path (terraform's rule): a plain key of a map
# holding a sensitive value is not.
variable "s" {
  type      = string
  default   = "x"
  sensitive = true
}
resource "random_id" "r" {
  byte_length = 4
  keepers = { a = var.s, b = "plain" }
}
resource "terraform_data" "d" {
  input = { a = var.s, b = "plain" }
}
output "kb" { value = random_id.r.keepers.b }
output "ib" { value = terraform_data.d.input.b }
output "ob" { value = terraform_data.d.output.b }
output "oa_sens" { value = issensitive(terraform_data.d.output.a) }
output "ka_sens" { value = issensitive(random_id.r.keepers["a"]) }
