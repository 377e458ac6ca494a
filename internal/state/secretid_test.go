package state

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestSecretIDIsSealed: a resource whose ID is secret is stored with the ID
// sealed, in snapshots, journal entries and pending operations alike, and
// read back with the ID and the flag.
func TestSecretIDIsSealed(t *testing.T) {
	const id = "db-password-hunter2"
	r := &Resource{URN: "urn:pulumi:dev::p::pkg:index:Thing::a", Type: "pkg:index:Thing", Custom: true,
		ID: id, SecretID: true, Provider: "urn:pulumi:dev::p::pulumi:providers:pkg::default::uuid",
		Inputs: resource.Object{}, Outputs: resource.Object{}, Missing: true}
	c := &fakeCrypter{}
	snap := &Snapshot{Resources: []*Resource{r}, Pending: []PendingOperation{{Op: OpUpdate, Resource: r}}}
	data, err := EncodeSnapshot(snap, 1, c)
	if err != nil {
		t.Fatal(err)
	}
	entry, err := EncodeEntry(&Entry{Seq: 2, Step: 1, Kind: Begin, Op: OpUpdate, Old: r, New: r}, c)
	if err != nil {
		t.Fatal(err)
	}
	for what, b := range map[string][]byte{"snapshot": data, "journal entry": entry} {
		if bytes.Contains(b, []byte(id)) {
			t.Errorf("the %s holds the secret ID in plain text: %s", what, b)
		}
	}
	got, _, err := DecodeSnapshot(data, c)
	if err != nil {
		t.Fatal(err)
	}
	e, err := DecodeEntry(entry, c)
	if err != nil {
		t.Fatal(err)
	}
	for what, back := range map[string]*Resource{"snapshot": got.Resources[0], "pending": got.Pending[0].Resource, "entry old": e.Old, "entry new": e.New} {
		if diff := cmp.Diff(r, back, valueCmp); diff != "" {
			t.Errorf("%s round trip (-want +got):\n%s", what, diff)
		}
	}
	if _, _, err := DecodeSnapshot(data, nil); err == nil {
		t.Errorf("a sealed ID was read without a key")
	}
}
