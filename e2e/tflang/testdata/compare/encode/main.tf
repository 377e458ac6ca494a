locals {
  doc = {
    name    = "svc"
    replicas = 3
    ratio   = 0.25
    enabled = true
    nothing = null
    ports   = [80, 443]
    labels  = { app = "svc", "tier/name" = "web" }
    nested  = [{ a = 1, b = ["x"] }, { a = 2, b = [] }]
    text    = "line1\nline2 <tag> & \"q\""
  }
}

resource "local_file" "json" {
  filename = "doc.json"
  content  = jsonencode(local.doc)
}

resource "local_file" "yaml" {
  filename = "doc.yaml"
  content  = yamlencode(local.doc)
}

output "json" { value = local_file.json.content }
output "yaml" { value = local_file.yaml.content }
output "roundtrip" { value = jsondecode(local_file.json.content).labels }
output "yaml_back" { value = yamldecode(local_file.yaml.content).nested }
output "csv" { value = csvdecode("a,b\n1,2\n3,4\n") }
output "b64" { value = base64encode(jsonencode([1, "two"])) }
