// Command terraform-provider-example serves the example provider to
// terraform over plugin protocol 6 (or 5, see tfserve.ProtocolFrom).
package main

import (
	"github.com/plinth-iac/plinth/examples/provider"
	"github.com/plinth-iac/plinth/sdk/provider/tfserve"
)

func main() { tfserve.Main("registry.terraform.io/plinth-iac/example", example.New()) }
