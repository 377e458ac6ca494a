terraform {
  required_providers {
    random = {
      source  = "REGISTRY/hashicorp/random"
      version = "~> 3.6"
    }
  }
}

module "inner" {
  source = "./inner"
}

resource "random_pet" "p" {
  prefix = module.inner.prefix
}

output "name" {
  value = random_pet.p.id
}
