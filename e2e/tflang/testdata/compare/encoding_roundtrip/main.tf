# Values encoded and decoded the ways modules pass them between tools:
# a CSV file read into objects, JSON and YAML encodings of the same data
# (key order, escapes, numbers, multi-line strings), base64 and gzip,
# URL encoding, UTF-16 text, and round trips through a file on disk.
locals {
  services = csvdecode(file("${path.module}/data/services.csv"))
  typed = [for s in local.services : {
    name    = s.name
    port    = tonumber(s.port)
    enabled = tobool(s.enabled)
    notes   = s.notes == "" ? null : s.notes
  }]
  doc = {
    services = local.typed
    script   = "#!/bin/sh\necho \"<hello & goodbye>\"\nexit 0\n"
    ratio    = 0.1 + 0.2
    big      = 12345678901234567890
    nothing  = null
    quoted   = ["yes", "no", "1.0", "~", "-", "a: b", "#x"]
  }
  json = jsonencode(local.doc)
  yaml = yamlencode(local.doc)
}

resource "local_file" "json" {
  filename = "${path.module}/out/doc.json"
  content  = local.json
}

resource "local_file" "yaml" {
  filename = "${path.module}/out/doc.yaml"
  content  = local.yaml
}

resource "local_file" "bin" {
  filename       = "${path.module}/out/doc.gz"
  content_base64 = base64gzip(local.json)
}

resource "terraform_data" "round" {
  input = {
    from_json = jsondecode(local_file.json.content)
    from_yaml = yamldecode(local_file.yaml.content)
  }
}

output "typed" {
  value = local.typed
}

output "json" {
  value = local.json
}

output "yaml" {
  value = local.yaml
}

output "round_equal" {
  value = {
    json = jsonencode(terraform_data.round.output.from_json) == local.json
    yaml = yamlencode(terraform_data.round.output.from_yaml) == local.yaml
  }
}

output "encodings" {
  value = {
    b64     = base64encode("héllo wörld")
    b64dec  = base64decode("aMOpbGxv")
    url     = urlencode("a b&c=d/é?")
    utf16   = textencodebase64("Hi ✓", "UTF-16LE")
    utf16bk = textdecodebase64(textencodebase64("Hi ✓", "UTF-16BE"), "UTF-16BE")
    gz_len  = length(base64gzip(local.json)) > 0
    file_md5 = local_file.json.content_md5 == md5(local.json)
    bin_len  = length(local_file.bin.content_base64sha256)
  }
}
