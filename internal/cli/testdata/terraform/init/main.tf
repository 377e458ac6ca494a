terraform {
  required_providers {
    random = {
      source  = "REGISTRY/hashicorp/random"
      version = ">= 3.0, < 4.0"
    }
    time = {
      source = "REGISTRY/hashicorp/time"
    }
  }
}

module "mod" {
  source = "./mod"
}

resource "random_pet" "p" {}

output "pet" {
  value = random_pet.p.id
}
