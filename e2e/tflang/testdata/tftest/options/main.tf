variable "prefix" {
  type    = string
  default = "opt"
}

variable "count_of" {
  type    = number
  default = 2
}

variable "seed" {
  type    = string
  default = "one"
}

resource "random_pet" "p" {
  prefix = var.prefix
  keepers = {
    seed = var.seed
  }
}

resource "terraform_data" "items" {
  count = var.count_of
  input = "${var.prefix}-${count.index}"

  lifecycle {
    precondition {
      condition     = var.count_of <= 3
      error_message = "At most 3 items."
    }
    postcondition {
      condition     = startswith(self.output, var.prefix)
      error_message = "The item does not start with the prefix."
    }
  }
}

module "helper" {
  source = "./helper"
  names  = terraform_data.items[*].output
}

data "local_file" "readme" {
  filename = "${path.module}/README.txt"
}

output "pet" {
  value = random_pet.p.id
}

output "items" {
  value = terraform_data.items[*].output
}

output "joined" {
  value = module.helper.joined
}

output "readme" {
  value = trimspace(data.local_file.readme.content)
}
