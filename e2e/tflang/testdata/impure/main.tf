# uuid(), timestamp() and bcrypt() are unknown during a plan and known
# during apply: a plan after apply still shows the outputs changing to
# "(known after apply)", and -detailed-exitcode exits 2.
resource "terraform_data" "d" {
  input = "fixed"
}
resource "terraform_data" "u" {
  input = uuid()
  lifecycle {
    ignore_changes = [input]
  }
}
output "ts_len" { value = length(timestamp()) }
output "hash_len" { value = length(bcrypt("x")) }
