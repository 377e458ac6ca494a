resource "terraform_data" "kept" {
  input = { version = 1, note = "first" }
  lifecycle {
    ignore_changes = [input]
  }
}

resource "local_file" "all" {
  filename = "all.txt"
  content  = "v1"
  lifecycle {
    ignore_changes = all
  }
}

resource "terraform_data" "changed" {
  input = "v1"
}

output "kept" { value = terraform_data.kept.output }
output "all" { value = local_file.all.content }
output "changed" { value = terraform_data.changed.output }
