# Deep merges of YAML and JSON documents in the manner of cloudposse's
# config/yaml and Invicton-Labs' deepmerge: documents read with file and
# yamldecode/jsondecode (a multi-document file split on ---), imports
# named inside a document, and maps merged key by key to a fixed depth,
# lists replaced, nulls kept.
locals {
  base      = yamldecode(file("${path.module}/config/base.yaml"))
  docs      = [for d in split("\n---\n", file("${path.module}/config/overrides.yaml")) : yamldecode(d)]
  imported  = [for name in local.base.import : yamldecode(file("${path.module}/config/${name}.yaml"))]
  extra     = jsondecode(file("${path.module}/config/extra.json"))
  layers    = concat([local.base], local.docs, local.imported, [local.extra])

  # Depth 1 and 2 merged key by key; deeper maps replaced. A tuple
  # indexed by a condition picks a value without unifying the types of
  # the branches, as modules do where a conditional would refuse.
  keys1 = distinct(flatten([for l in local.layers : keys(l)]))
  at1   = { for k in local.keys1 : k => [for l in local.layers : l[k] if contains(keys(l), k)] }
  merged = {
    for k, vs in local.at1 : k => [
      vs[length(vs) - 1],
      {
        for k2 in distinct(flatten([for v in vs : try(keys(v), [])])) : k2 => [
          [for v in vs : v[k2] if can(v[k2])][length([for v in vs : 1 if can(v[k2])]) - 1],
          try(merge([for v in vs : v[k2] if can(v[k2])]...), null),
        ][alltrue([for v in vs : can(keys(v[k2])) if can(v[k2])]) ? 1 : 0]
      },
    ][alltrue([for v in vs : can(keys(v))]) ? 1 : 0]
  }
  shallow = merge(local.layers...)
}

resource "local_file" "merged" {
  filename = "${path.module}/out/merged.yaml"
  content  = yamlencode(local.merged)
}

resource "terraform_data" "service" {
  input = local.merged.service
}

output "merged" {
  value = local.merged
}

output "shallow_keys" {
  value = { for k, v in local.shallow : k => try(keys(v), v) }
}

output "imported_equal" {
  value = local.imported[0].service.labels.team == local.docs[1].service.labels.team
}

output "yaml_round_trip" {
  value = yamldecode(local_file.merged.content) == jsondecode(jsonencode(local.merged))
}

output "service" {
  value = terraform_data.service.output
}

output "extra_list" {
  value = local.extra.list
}

output "types" {
  value = {
    replicas = local.merged.service.replicas + 1
    ports    = length(local.merged.service.ports)
    memory   = local.merged.service.limits.memory
    new_ui   = local.merged.features.new_ui == null
  }
}
