// Command getproviders builds the Terraform providers the example uses
// (random, local) from the Go module proxy, or finds them in the cache,
// and links them into the directory given as its argument.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/plinth-iac/plinth/internal/tfproviders"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: getproviders DIR")
		os.Exit(2)
	}
	cache, err := tfproviders.DefaultDir()
	if err == nil {
		_, err = tfproviders.LinkInto(context.Background(), cache, os.Args[1], "random", "local")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "building the providers:", err)
		os.Exit(1)
	}
}
