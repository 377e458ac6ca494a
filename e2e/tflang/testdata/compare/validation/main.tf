variable "env" {
  type    = string
  default = "staging"
  validation {
    condition     = contains(["dev", "staging", "prod"], var.env)
    error_message = "env must be dev, staging or prod."
  }
}

variable "cidr" {
  type    = string
  default = "10.1.0.0/16"
  validation {
    condition     = can(cidrhost(var.cidr, 0))
    error_message = "cidr must be a CIDR block."
  }
  validation {
    condition     = endswith(var.cidr, "/16")
    error_message = "cidr must be a /16."
  }
}

variable "name" {
  type    = string
  default = "app-01"
  validation {
    condition     = can(regex("^[a-z]+-[0-9]{2}$", var.name))
    error_message = "name must look like app-01."
  }
}

resource "terraform_data" "v" {
  input = "${var.env}/${var.name}/${var.cidr}"
}

output "v" { value = terraform_data.v.output }
