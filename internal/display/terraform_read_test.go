package display

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
)

// TestTerraformReadingLines: reads and openings are printed as terraform
// prints them, as they happen: a data source the preview read is not
// shown again by the update after it (terraform reads it once, while it
// plans) but one left to apply is; ephemeral resources are opened in
// both, and closed, last opened first, when the operation ends; the
// plinth style shows none of it.
func TestTerraformReadingLines(t *testing.T) {
	read := program.Reading{Address: "data.local_file.read", Type: "local:index:local_file"}
	readDone := read
	readDone.Done, readDone.ID, readDone.Duration = true, "b4d7", 300*time.Millisecond
	pub := program.Reading{Address: "data.tls_public_key.pub", Type: "tls:index:tls_public_key"}
	pubDone := pub
	pubDone.Done, pubDone.ID, pubDone.SecretID, pubDone.Duration = true, "k1", true, 2*time.Second
	eph := program.Reading{Address: "ephemeral.random_password.e", Ephemeral: true}
	ephDone := eph
	ephDone.Done = true
	eph2 := program.Reading{Address: "ephemeral.tls_private_key.k", Ephemeral: true}
	eph2Done := eph2
	eph2Done.Done = true
	counts := &engine.Result{Counts: map[engine.StepOp]int{}}
	run := func(style Style, failUpdate bool) string {
		var out bytes.Buffer
		v := New(Options{Out: &out, Style: style, Scrubber: &Scrubber{}})
		v.Begin(Operation{Verb: "update", Preview: true})
		for _, r := range []program.Reading{read, eph, eph2, eph2Done, readDone, ephDone} {
			Reading(v, r)
		}
		v.End(Outcome{Result: counts})
		v.Begin(Operation{Verb: "update"})
		for _, r := range []program.Reading{eph, read, readDone, ephDone, pub, pubDone} {
			Reading(v, r)
		}
		o := Outcome{Result: counts}
		if failUpdate {
			o.Err = errors.New("closing tls:index:tls_private_key: boom")
		}
		v.End(o)
		return out.String()
	}
	want := `data.local_file.read: Reading...
ephemeral.random_password.e: Opening...
ephemeral.tls_private_key.k: Opening...
ephemeral.tls_private_key.k: Opening complete after 0s
data.local_file.read: Read complete after 0s [id=b4d7]
ephemeral.random_password.e: Opening complete after 0s
ephemeral.random_password.e: Closing...
ephemeral.random_password.e: Closing complete after 0s
ephemeral.tls_private_key.k: Closing...
ephemeral.tls_private_key.k: Closing complete after 0s

No changes. Your infrastructure matches the configuration.

ephemeral.random_password.e: Opening...
ephemeral.random_password.e: Opening complete after 0s
data.tls_public_key.pub: Reading...
data.tls_public_key.pub: Read complete after 2s [id=(sensitive value)]
ephemeral.random_password.e: Closing...
ephemeral.random_password.e: Closing complete after 0s

Apply complete! Resources: 0 added, 0 changed, 0 destroyed.
`
	if diff := cmp.Diff(want, run(StyleTerraform, false)); diff != "" {
		t.Errorf("terraform style (-want +got):\n%s", diff)
	}
	failed := run(StyleTerraform, true)
	if _, update, _ := strings.Cut(failed, "Read complete after 2s"); strings.Contains(update, "Closing") {
		t.Errorf("an update whose closing failed says it completed:\n%s", failed)
	}
	if got := run(StylePlinth, false); bytes.Contains([]byte(got), []byte("Reading")) || bytes.Contains([]byte(got), []byte("Opening")) {
		t.Errorf("the plinth style shows reads:\n%s", got)
	}
}
