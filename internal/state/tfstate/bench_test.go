package tfstate

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/internal/state/file"
)

// bigState generates a Terraform state of n/2 random_pet and n/2
// local_file resources, each file depending on its pet and holding a
// sensitive attribute.
func bigState(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "l", "outputs": {}, "resources": [`)
	for i := 0; i < n/2; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"mode": "managed", "type": "random_pet", "name": "p%d", "provider": "provider[\"registry.terraform.io/hashicorp/random\"]",
 "instances": [{"schema_version": 0, "attributes": {"id": "pet-%d", "length": 2, "prefix": null, "separator": "-"}}]},`, i, i)
		fmt.Fprintf(&b, `{"mode": "managed", "type": "local_file", "name": "f%d", "provider": "provider[\"registry.terraform.io/hashicorp/local\"]",
 "instances": [{"schema_version": 0, "attributes": {"id": "%040d", "content": "hello pet-%d\n", "filename": "f%d.txt", "sensitive_content": null,
 "content_md5": "fb0f2781dbc99b8160e0d971b283ed3f"}, "sensitive_attributes": [[{"type": "get_attr", "value": "sensitive_content"}]], "dependencies": ["random_pet.p%d"]}]}`, i, i, i, i, i)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// BenchmarkAdopt10000: parse a 10,000-instance Terraform state, map it,
// and record it in a stack (in memory, the codec sealing its secrets).
func BenchmarkAdopt10000(b *testing.B) {
	data := bigState(10000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		st, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		snap, _, err := ToSnapshot(st, target)
		if err != nil {
			b.Fatal(err)
		}
		if len(snap.Resources) != 10002 {
			b.Fatalf("%d resources", len(snap.Resources))
		}
		be := file.New(b.TempDir())
		s, err := state.Open(context.Background(), be, "dev", state.OpenOptions{Crypter: sealer{}})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.ReplaceSnapshot(context.Background(), snap); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// sealer stands in for the secrets package's crypter.
type sealer struct{}

func (sealer) Seal(p []byte) (string, error) {
	return "b64:" + base64.StdEncoding.EncodeToString(p), nil
}
func (sealer) Open(c string) ([]byte, error) {
	return base64.StdEncoding.DecodeString(strings.TrimPrefix(c, "b64:"))
}

// countedDepsState generates a Terraform state of two counted resources
// of n instances each, every instance of the second depending (as
// Terraform records it, resource-level) on the first: n×n references once
// expanded to instances.
func countedDepsState(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "l", "outputs": {}, "resources": [`)
	b.WriteString(`{"mode": "managed", "type": "random_pet", "name": "a", "each": "list", "provider": "provider[\"registry.terraform.io/hashicorp/random\"]", "instances": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"index_key": %d, "schema_version": 0, "attributes": {"id": "pet-%d", "length": 2, "prefix": null, "separator": "-"}}`, i, i)
	}
	b.WriteString(`]}, {"mode": "managed", "type": "random_pet", "name": "b", "each": "list", "provider": "provider[\"registry.terraform.io/hashicorp/random\"]", "instances": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"index_key": %d, "schema_version": 0, "attributes": {"id": "b-%d", "length": 2, "prefix": null, "separator": "-"}, "dependencies": ["random_pet.a"]}`, i, i)
	}
	b.WriteString("]}]}")
	return []byte(b.String())
}

// BenchmarkAdoptCountedDeps1000: two counted resources of 1,000
// instances, one depending on the other (resource level, as Terraform
// records it: a dependency group each, not a million instance references).
func BenchmarkAdoptCountedDeps1000(b *testing.B) { benchCountedDeps(b, 1000) }

// BenchmarkAdoptCountedDeps5000: the same with 5,000 instances each.
func BenchmarkAdoptCountedDeps5000(b *testing.B) { benchCountedDeps(b, 5000) }

func benchCountedDeps(b *testing.B, n int) {
	data := countedDepsState(n)
	for b.Loop() {
		st, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		snap, _, err := ToSnapshot(st, target)
		if err != nil {
			b.Fatal(err)
		}
		if len(snap.Resources) != 2*n+1 {
			b.Fatalf("%d resources", len(snap.Resources))
		}
		be := file.New(b.TempDir())
		s, err := state.Open(context.Background(), be, "dev", state.OpenOptions{Crypter: sealer{}})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.ReplaceSnapshot(context.Background(), snap); err != nil {
			b.Fatal(err)
		}
		if err := s.Close(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
