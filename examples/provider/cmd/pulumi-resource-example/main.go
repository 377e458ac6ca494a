// Command pulumi-resource-example serves the example provider to the
// Pulumi engine (or plinth) over pulumirpc.
package main

import (
	"github.com/plinth-iac/plinth/examples/provider"
	"github.com/plinth-iac/plinth/sdk/provider/pulumiserve"
)

func main() { pulumiserve.Main(example.New()) }
