# Provider-defined functions: provider::time::rfc3339_parse.
terraform {
  required_providers {
    time = { source = "hashicorp/time", version = "~> 0.14" }
  }
}

variable "stamp" {
  default = "2024-03-05T06:07:08Z"
}

locals {
  parsed = provider::time::rfc3339_parse(var.stamp)
}

resource "terraform_data" "year" {
  input = local.parsed.year
}

output "year" { value = local.parsed.year }
output "month" { value = local.parsed.month_name }
output "unix" { value = local.parsed.unix }
output "weekday" { value = local.parsed.weekday_name }
output "stored" { value = terraform_data.year.output }
