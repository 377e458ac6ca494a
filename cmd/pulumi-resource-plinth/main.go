// Command pulumi-resource-plinth serves plinth's built-in providers
// (providers/plinth: random values, files, commands, timers) as a
// Pulumi-protocol plugin, so that the pulumi CLI, or plinth itself out of
// process, can use them. Put it on a plugin path; the engine starts it with
// its address as the argument and reads the port from its first line.
package main

import (
	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider/pulumiserve"
)

func main() {
	pulumiserve.Main(plinth.New())
}
