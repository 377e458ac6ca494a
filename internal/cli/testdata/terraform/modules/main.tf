terraform {
  required_providers {
    random = {
      source  = "REGISTRY/hashicorp/random"
      version = ">= 3.0"
    }
  }
}

# A registry module, whose package the registry's X-Terraform-Get names.
module "reg" {
  source  = "REGISTRY/plinth/pet/random"
  version = "~> 1.0"
}

# A subdirectory of a registry module's package, at an exact version.
module "regsub" {
  source  = "REGISTRY/plinth/pet/random//inner"
  version = "1.0.0"
}

# An https archive.
module "web" {
  source = "ARCHIVEURL"
}

# A module in a subdirectory of a git repository, at a tag.
module "git" {
  source = "git::GITURL//pet?ref=v1.0.0"
}

# A local module, which calls a remote one (key local.clock).
module "local" {
  source = "./local"
}

output "names" {
  value = [module.reg.name, module.regsub.prefix, module.web.name, module.git.made, module.local.made]
}
