terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.6" }
    local  = { source = "hashicorp/local" }
  }
}

provider "random" {}

provider "random" {
  alias = "other"
}

resource "random_integer" "a" {
  min  = 1
  max  = 1
  seed = "a"
}

resource "random_integer" "b" {
  provider = random.other
  min      = 7
  max      = 7
}

module "child" {
  source    = "./child"
  providers = { random = random.other }
}

output "a" { value = random_integer.a.result }
output "b" { value = random_integer.b.result }
output "child" { value = module.child.value }
