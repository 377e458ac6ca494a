package plinth_test

import (
	"context"
	"testing"

	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// petInputs are a Pet's inputs as the bench's programs write them.
func petInputs() resource.Object {
	return resource.Object{"length": resource.NewNumber(2), "prefix": resource.NewString("p1")}
}

// recordedPet checks and creates one Pet, returning what the engine
// records: the checked inputs and the outputs.
func recordedPet(b *testing.B, p provider.Provider, urn resource.URN) (string, resource.Object, resource.Object) {
	b.Helper()
	ctx := context.Background()
	checked, err := p.Check(ctx, provider.CheckRequest{URN: urn, News: petInputs()})
	if err != nil || len(checked.Failures) > 0 {
		b.Fatalf("Check: %v %v", err, checked.Failures)
	}
	created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: checked.Inputs})
	if err != nil {
		b.Fatalf("Create: %v", err)
	}
	return created.ID, checked.Inputs, created.Outputs
}

func configuredPlinth(b *testing.B) provider.Provider {
	b.Helper()
	p := plinth.New()
	if _, err := p.Configure(context.Background(), provider.ConfigureRequest{Inputs: resource.Object{}}); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPetCheck is one Check of a no-change preview: the program's
// inputs against the recorded ones.
func BenchmarkPetCheck(b *testing.B) {
	p := configuredPlinth(b)
	urn := urnOf(plinth.PetType, "p1")
	_, olds, _ := recordedPet(b, p, urn)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		resp, err := p.Check(ctx, provider.CheckRequest{URN: urn, Olds: olds, News: petInputs()})
		if err != nil || len(resp.Failures) > 0 {
			b.Fatalf("%v %v", err, resp.Failures)
		}
	}
}

// BenchmarkPetDiff is one Diff of a no-change preview.
func BenchmarkPetDiff(b *testing.B) {
	p := configuredPlinth(b)
	urn := urnOf(plinth.PetType, "p1")
	id, olds, outs := recordedPet(b, p, urn)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		d, err := p.Diff(ctx, provider.DiffRequest{URN: urn, ID: id, OldInputs: olds, OldOutputs: outs, News: olds})
		if err != nil || d.Changes != provider.DiffNone {
			b.Fatalf("%+v %v", d, err)
		}
	}
}

// BenchmarkPetCheckCreate is a new Pet: Check without olds, then Create.
func BenchmarkPetCheckCreate(b *testing.B) {
	p := configuredPlinth(b)
	urn := urnOf(plinth.PetType, "p1")
	b.ReportAllocs()
	for b.Loop() {
		recordedPet(b, p, urn)
	}
}
