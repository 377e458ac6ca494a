# Only this module requires time: plinth init installs it because the
# module is installed first.
terraform {
  required_providers {
    time = {
      source = "REGISTRY/hashicorp/time"
    }
  }
}

resource "time_static" "t" {}

output "made" {
  value = time_static.t.rfc3339
}
