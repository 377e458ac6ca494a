resource "random_id" "x" {
  byte_length = 4
  keepers = {
    x = "one"
  }
  lifecycle {
    ignore_changes = [keepers["y"]]
  }
}

resource "terraform_data" "r" {
  input = "a"
  lifecycle {
    replace_triggered_by = [random_id.x.keepers["x"]]
  }
}

output "keepers" { value = random_id.x.keepers }
output "r" { value = terraform_data.r.output }
