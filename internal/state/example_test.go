package state_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/plinth-iac/plinth/internal/secrets"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// How a command wires the pieces: a backend, the stack's secrets key, and
// a session that the engine records into.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "plinth")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	backend := file.New(dir) // the CLI passes <project>/.plinth

	// secrets.FromEnv() reads PLINTH_PASSPHRASE; without one a key is made.
	crypter, warning, err := secrets.Open(ctx, backend, "dev", secrets.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("warned:", warning != "")

	s, err := state.Open(ctx, backend, "dev", state.OpenOptions{Crypter: crypter, Command: "plinth up"})
	if err != nil {
		log.Fatal(err) // e.g. a *state.LockedError naming the holder
	}
	// The engine calls s.Record before and after each provider call.
	p := &state.Resource{
		URN:  resource.NewURN("dev", "proj", "", "pulumi:providers:random", "default"),
		Type: "pulumi:providers:random", Custom: true, ID: "1",
	}
	if err := s.Record(ctx, &state.Entry{Kind: state.Write, Op: state.OpCreate, New: p}); err != nil {
		log.Fatal(err)
	}
	if err := s.Close(ctx); err != nil { // compacts and unlocks
		log.Fatal(err)
	}

	// Preview and `state ls` read without locking.
	snap, err := state.Load(ctx, backend, "dev", state.OpenOptions{Crypter: crypter})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(snap.Resources), snap.Resources[0].URN.Name())
	// Output:
	// warned: true
	// 1 default
}
