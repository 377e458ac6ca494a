variable "name" {
  type    = string
  default = "plinth"
  validation {
    condition     = length(var.name) <= 8
    error_message = "The name must be at most 8 characters."
  }
}

variable "size" {
  type    = number
  default = 2
}

resource "random_string" "suffix" {
  length  = var.size
  special = false
  upper   = false
}

resource "terraform_data" "label" {
  input = "${var.name}-${var.size}"
}

resource "local_file" "note" {
  filename = "${path.module}/out/${var.name}.txt"
  content  = "hello ${var.name}"
}

output "label" {
  value = terraform_data.label.output
}

output "name" {
  value = var.name
}

output "suffix" {
  value = random_string.suffix.result
}

output "doubled" {
  value = var.size * 2
  precondition {
    condition     = var.size < 10
    error_message = "The size must be below 10."
  }
}

check "small" {
  assert {
    condition     = var.size <= 5
    error_message = "The size is more than 5."
  }
}

locals {
  shout = upper(var.name)
}

resource "terraform_data" "guarded" {
  input = local.shout
  lifecycle {
    precondition {
      condition     = var.name != "banned"
      error_message = "The name is banned."
    }
  }
}

output "secret" {
  value     = "s3cret-${var.name}"
  sensitive = true
}
