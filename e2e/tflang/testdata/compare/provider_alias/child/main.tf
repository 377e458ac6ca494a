terraform {
  required_providers {
    random = { source = "hashicorp/random", version = ">= 3.0" }
  }
}

resource "random_shuffle" "s" {
  input        = ["only"]
  result_count = 1
}

output "value" { value = random_shuffle.s.result }
