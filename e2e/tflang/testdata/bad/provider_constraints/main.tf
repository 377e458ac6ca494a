# want: main.tf:4:5 Failed to query available provider packages
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "~> 3.6" }
  }
}

module "child" {
  source = "./mod"
}

resource "random_pet" "p" {}
