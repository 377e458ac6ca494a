variable "names" {
  type = list(string)
}

variable "sizes" {
  type    = map(number)
  default = {}
}

resource "terraform_data" "n" {
  count = length(var.names)
  input = "${count.index}-${var.names[count.index]}-${lookup(var.sizes, var.names[count.index], 0)}"
}

output "all" { value = terraform_data.n[*].output }
output "n" { value = length(terraform_data.n) }
