package engine

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// TestPlansCostNothingWhenEmpty: an update without a preview (up
// --skip-preview) asks its empty Plans, and a lone preview its nil one,
// for every resource's plan, check and diff. Neither may describe the
// step first (parse its provider reference, copy its inputs): that cost
// two URN parses per resource and nothing came of them.
func TestPlansCostNothingWhenEmpty(t *testing.T) {
	c := &change{
		urn:    resource.NewURN("dev", "p", "", "random:index:random_pet", "pet"),
		reg:    &Registration{},
		inst:   &instance{ref: "urn:plinth:dev::p::plinth:providers:random::default::0a1b2c"},
		inputs: resource.Object{"length": resource.NewNumber(2)},
	}
	news := resource.Object{"length": resource.NewNumber(2)}
	empty := NewPlans()
	x := &executor{execution: &execution{opts: &Options{Plans: empty}}}
	plan := []byte("plan")
	cases := map[string]func(){
		"take a plan":  func() { empty.take(c, OpCreate) },
		"take a check": func() { x.checkedOf(c, opCheckFresh, news) },
		"take a diff":  func() { x.diffOf(c) },
		"keep a check": func() { (*Plans)(nil).keepCheck(c, opCheck, news, news) },
		"keep a diff":  func() { (*Plans)(nil).keepDiff(c, provider.DiffResponse{}) },
		"keep a plan":  func() { (*Plans)(nil).keep(c, OpCreate, plan) },
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			if n := testing.AllocsPerRun(50, f); n > 0 {
				t.Errorf("allocated %v times, want none", n)
			}
		})
	}
}
