// Package hcl is plinth's second program format: a directory of Terraform
// configuration files (*.tf, *.tf.json) run unchanged. It parses them with
// github.com/hashicorp/hcl/v2, evaluates expressions with go-cty, and
// registers resources with an engine.Monitor exactly as the YAML format
// (internal/program/yaml) does, so the engine cannot tell the formats apart.
//
// A resource's name is its Terraform address (local_file.page[1],
// module.site["a"].local_file.page). Data sources are provider
// functions read through the engine's Invoke, during the plan when their
// arguments are known and after their dependencies otherwise. Modules are
// local directories or ones `terraform init` installed
// (.terraform/modules/modules.json); their resources are registered flat,
// with the module path in their addresses.
//
// moved, import and removed blocks (moved.go, import.go, removed.go)
// become engine options on the registrations: aliases naming the old
// URNs, an ImportID unless the state holds the address already, and
// Forget (engine.Forgetter) for removed blocks with destroy = false.
//
// What it leaves out: planning, diffing and calling providers (the
// engine), rendering (internal/display), provisioners, the backend block
// (plinth keeps its own state), and remote module sources that were not
// installed. docs/terraform.md lists
// what is supported.
//
// Its neighbours: internal/cli picks this package when a directory holds
// .tf files and no plinth.yaml; internal/program provides the shared
// Diagnostic and Options types; values are sdk/resource values at the
// engine boundary and cty values inside.
package hcl
