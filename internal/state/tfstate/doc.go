// Package tfstate reads and writes Terraform's state format, version 4 (a
// terraform.tfstate, or `terraform state pull`), and maps it to and from
// plinth's state.Snapshot: `plinth state adopt` and `plinth state export
// --format terraform`.
//
// The mapping, in brief:
//
//   - Each managed resource instance becomes a custom resource whose URN
//     name is its Terraform address (module.site["alpha"].local_file.page[1])
//     and whose type is the token random:index:random_pet, as plinth names
//     Terraform types. Data sources are skipped: they are read again.
//   - Attributes become the outputs (numbers exact; sensitive_attributes
//     paths made secret, so the codec seals them) and, without nulls and
//     the id, the inputs; the id attribute is the ID ("none" without one).
//   - schema_version and the base64 private bytes go into Resource.Private
//     in the Terraform adapter's layout (package tfprivate), so that
//     UpgradeResourceState runs on the next load.
//   - Provider configurations become provider resources: the root's
//     unaliased one is the default provider (pulumi:providers:random
//     named default), an aliased one provider.random.west, a module's
//     module.x.provider.random, as the Terraform front end names them.
//   - dependencies become URN dependencies (every instance of the resource
//     named); create_before_destroy is the inverse of DeleteBeforeReplace;
//     status "tainted" sets Tainted; deposed objects are pending deletion.
//   - Root outputs become stack outputs; sensitive ones are secrets; their
//     types are kept (state.Snapshot.OutputTypes).
//
// Export reverses the mapping. What plinth does not keep comes from
// ExportOptions (lineage, serial, terraform_version); deposed keys are made
// up from the object's ID; an output's type is a previous state's, else
// the one the snapshot records (adopted, or from the Terraform front end's
// evaluation), else inferred from its value. A sensitive path through a
// string key is written both as an attribute step and as a map index:
// plinth's values do not tell a map from an object, and terraform marks
// only the paths that name part of the value.
//
// Left out: attributes_flat (Terraform 0.11 states: refused with how to
// upgrade them), checking attributes against the provider's schema (the
// provider is not launched; the next preview does that). terraform_data's
// dynamic attributes are written with the types the record keeps
// (state.Resource.InputTypes, from adoption or the Terraform front end),
// else inferred.
//
// Neighbours: internal/state (the snapshot it produces and consumes),
// internal/provider/tfplugin/tfprivate (the Private layout), and the CLI,
// which opens the stack and records the snapshot in one transaction.
package tfstate
