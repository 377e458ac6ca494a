// Command plinth is the plinth command line: it makes real infrastructure
// match the program in a project's plinth.yaml. All of it lives in
// internal/cli; this only hands it the process's streams and arguments.
package main

import (
	"context"
	"os"

	"github.com/plinth-iac/plinth/internal/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), os.Args[1:], cli.System()))
}
