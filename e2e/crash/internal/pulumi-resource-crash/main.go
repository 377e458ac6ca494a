// Command pulumi-resource-crash is the crash harness's test plugin: a
// Pulumi-protocol provider, written with plinth's SDK, of one resource
// type, crash:index:Thing, whose "cloud" is a ledger on disk. Every Create,
// Update and Delete appends a line to the file named by CRASH_LEDGER
// (`create URN ID`, `update ID`, `delete ID`) before it returns, and takes
// a little random time before and after that write, so that a SIGKILL of
// this process lands before the change, after it but before the answer,
// or between calls. Read answers from the ledger, so a refresh or an
// import sees what really exists.
//
// It is built by e2e/crash's TestMain and found by plinth on
// PLINTH_PLUGIN_PATH; it is not a product.
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/provider/pulumiserve"
)

// ThingType is the one resource type the plugin serves.
const ThingType = "crash:index:Thing"

// ThingArgs are a Thing's inputs: X changes update it in place, K changes
// replace it, After carries a dependency's ID.
type ThingArgs struct {
	X     int    `plinth:"x" doc:"Updated in place when it changes."`
	K     int    `plinth:"k,replaceOnChanges" doc:"Replaces the thing when it changes."`
	After string `plinth:"after,optional" doc:"The ID of a thing this one depends on."`
}

// ThingState are a Thing's outputs: its inputs.
type ThingState struct {
	ThingArgs
}

// Thing is crash:index:Thing over a ledger.
type Thing struct{ l *ledger }

// Create makes a new object and records it in the ledger.
func (t Thing) Create(ctx context.Context, op provider.CreateOp[ThingArgs]) (provider.CreateResult[ThingState], error) {
	pause()
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	if err := t.l.append("create " + string(op.URN) + " " + id); err != nil {
		return provider.CreateResult[ThingState]{}, err
	}
	pause()
	return provider.CreateResult[ThingState]{ID: id, Outputs: ThingState{op.Inputs}}, nil
}

// Update changes an object in place.
func (t Thing) Update(ctx context.Context, op provider.UpdateOp[ThingArgs, ThingState]) (provider.UpdateResult[ThingState], error) {
	pause()
	if err := t.l.append("update " + op.ID); err != nil {
		return provider.UpdateResult[ThingState]{}, err
	}
	pause()
	return provider.UpdateResult[ThingState]{Outputs: ThingState{op.News}}, nil
}

// Delete removes an object. Deleting one that is already gone succeeds,
// as it does with real clouds' providers.
func (t Thing) Delete(ctx context.Context, op provider.DeleteOp[ThingArgs, ThingState]) error {
	pause()
	if err := t.l.append("delete " + op.ID); err != nil {
		return err
	}
	pause()
	return nil
}

// Read reports whether the object still exists; its properties are the
// ones recorded (the ledger holds none).
func (t Thing) Read(ctx context.Context, op provider.ReadOp[ThingArgs, ThingState]) (provider.ReadResult[ThingArgs, ThingState], error) {
	live, err := t.l.live()
	if err != nil || !live[op.ID] {
		return provider.ReadResult[ThingArgs, ThingState]{}, err
	}
	return provider.ReadResult[ThingArgs, ThingState]{ID: op.ID, Inputs: op.Inputs, Outputs: ThingState{op.Inputs}}, nil
}

// pause takes 2 to 20 ms, so that calls overlap and kills land inside them.
func pause() { time.Sleep(time.Duration(2000+mrand.IntN(18000)) * time.Microsecond) }

// ledger is the append-only file of what exists.
type ledger struct {
	mu   sync.Mutex
	path string
}

// append writes one line. It is not synced: a SIGKILL of this process does
// not lose data already written to the kernel.
func (l *ledger) append(line string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("opening the ledger: %w", err)
	}
	defer f.Close()
	_, err = f.WriteString(line + "\n")
	return err
}

// live lists the IDs of the objects that exist.
func (l *ledger) live() (map[string]bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	live := map[string]bool{}
	f, err := os.Open(l.path)
	if os.IsNotExist(err) {
		return live, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		switch parts := strings.Fields(sc.Text()); {
		case len(parts) == 3 && parts[0] == "create":
			live[parts[2]] = true
		case len(parts) == 2 && parts[0] == "delete":
			delete(live, parts[1])
		}
	}
	return live, sc.Err()
}

func main() {
	path := os.Getenv("CRASH_LEDGER")
	if path == "" {
		fmt.Fprintln(os.Stderr, "error: CRASH_LEDGER is not set: it names the ledger file this test plugin writes")
		os.Exit(1)
	}
	p, err := provider.New(provider.Info{Name: "crash", Version: "1.0.0"},
		provider.WithResource[ThingArgs, ThingState](ThingType, Thing{l: &ledger{path: path}}, "An object in the crash harness's ledger."))
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	pulumiserve.Main(p)
}
