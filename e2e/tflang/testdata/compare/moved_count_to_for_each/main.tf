resource "terraform_data" "svc" {
  count = 2
  input = "svc-${count.index}"
}

output "svc" { value = terraform_data.svc[*].output }
