resource "random_id" "x" {
  byte_length = 4
  keepers = {
    x = "one"
    y = "same"
  }
  lifecycle {
    ignore_changes = [keepers["x"]]
  }
}

resource "terraform_data" "t" {
  input = { a = "1", b = "1" }
  lifecycle {
    ignore_changes = [input["a"]]
  }
}

output "keepers" { value = random_id.x.keepers }
output "t" { value = terraform_data.t.output }
