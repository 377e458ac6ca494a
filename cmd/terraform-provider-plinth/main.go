// Command terraform-provider-plinth serves plinth's built-in providers
// (providers/plinth: random values, files, commands, timers) as one
// Terraform provider, source address plinth-iac/plinth, so that terraform
// (or plinth, through its Terraform adapter) can drive them. It serves
// plugin protocol 6; -protocol=5 or PLINTH_TF_PROTOCOL=5 serves protocol 5
// for older Terraform.
//
// It is a separate binary from plinth on purpose: terraform-plugin-go's
// server registers the same protobuf names as plinth's own Terraform
// client, and the two cannot be linked together.
package main

import (
	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider/tfserve"
)

// Address is the provider's source address.
const Address = "registry.terraform.io/plinth-iac/plinth"

func main() {
	tfserve.Main(Address, plinth.New())
}
