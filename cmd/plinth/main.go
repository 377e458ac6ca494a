// Command plinth is the plinth command line: it makes real infrastructure
// match the program in a project's plinth.yaml. All of it lives in
// internal/cli; this only hands it the process's streams and arguments.
//
// For performance work, PLINTH_CPUPROFILE=FILE writes a Go CPU profile of
// the run to FILE (read it with `go tool pprof`). It is a developer's
// hook, not a user-facing setting, and is not documented in docs/cli.md.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/plinth-iac/plinth/internal/cli"
)

func main() {
	stop := startCPUProfile(os.Getenv("PLINTH_CPUPROFILE"))
	code := cli.Main(context.Background(), os.Args[1:], cli.System())
	stop()
	os.Exit(code)
}

// startCPUProfile starts profiling into path, if set, and returns the
// function that stops it and closes the file.
func startCPUProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "plinth: PLINTH_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
