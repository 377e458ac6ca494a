package program

import "github.com/plinth-iac/plinth/sdk/resource"

// ConfigValue is a value for "plinth config set", checked against the
// program's declaration.
type ConfigValue struct {
	// Key is the key to store: the project namespace stripped.
	Key   string
	Value resource.Value
	// Secret is set when the program declares the key secret; the value
	// must then be stored encrypted whatever the command line said.
	Secret bool
	// Declared is false for a key the program does not declare (the CLI
	// should warn); such a value is kept as a string.
	Declared bool
}
