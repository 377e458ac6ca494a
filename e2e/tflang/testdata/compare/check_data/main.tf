# Data sources nested in check blocks ("scoped" data sources): read during
# every plan and apply, their failures and failed assertions warnings.

resource "local_file" "f" {
  filename = "${path.module}/checked.txt"
  content  = "checked content"
}

resource "tls_private_key" "k" {
  algorithm = "ED25519"
}

resource "random_pet" "p" {}

# Waits for local_file.f: read during apply, passes.
check "file_written" {
  data "local_file" "probe" {
    filename = local_file.f.filename
  }
  assert {
    condition     = data.local_file.probe.content == local_file.f.content
    error_message = "checked.txt holds ${data.local_file.probe.content}"
  }
}

# Reads a file nobody writes: a warning, and the assertion is skipped.
check "missing_file" {
  data "local_file" "gone" {
    filename = "${path.module}/never-written.txt"
  }
  assert {
    condition     = data.local_file.gone.content == "anything"
    error_message = "not evaluated: the read fails"
  }
}

# Read during the plan (its arguments are known): a failed assertion.
check "static" {
  data "local_file" "config" {
    filename = "${path.module}/static.txt"
  }
  assert {
    condition     = length(data.local_file.config.content) < 10
    error_message = "static.txt has ${length(data.local_file.config.content)} characters"
  }
}

check "key_matches" {
  data "tls_public_key" "k" {
    private_key_pem = tls_private_key.k.private_key_pem
  }
  assert {
    condition     = data.tls_public_key.k.public_key_openssh == tls_private_key.k.public_key_openssh
    error_message = "the public key read differs"
  }
}

module "probe" {
  source   = "./modules/probe"
  for_each = toset(["a", "b"])
  name     = each.key
}

# A data source outside any check: its lifecycle conditions hold.
data "local_file" "static" {
  filename = "${path.module}/static.txt"
  lifecycle {
    precondition {
      condition     = fileexists("${path.module}/static.txt")
      error_message = "static.txt is missing"
    }
    postcondition {
      condition     = length(self.content) == 30
      error_message = "static.txt has ${length(self.content)} characters, want 30"
    }
  }
}

output "content" { value = local_file.f.content }
output "static_length" { value = length(data.local_file.static.content) }
output "probes" { value = { for k, m in module.probe : k => m.content } }
output "rand_pet" { value = random_pet.p.id }
