package component_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/state"
)

// site is a program using the plugin's component with the given inputs.
func site(items, label, zone string) string {
	return fmt.Sprintf(`name: comps
resources:
  web:
    type: comp:index:Site
    properties:
      items: %s
      label: %s
      zone: %s
outputs:
  paths: ${web.paths}
  count: ${web.count}
`, items, label, zone)
}

// noComponent is the program once the component is removed.
const noComponent = `name: comps
resources: {}
`

const (
	siteURN = "urn:pulumi:dev::comps::comp:index:Site::web"
	itemURN = "urn:pulumi:dev::comps::comp:index:Site$comp:index:Item::"
)

// rows is `plinth state ls` as URN → ID, without the default provider.
func (p *project) rows() map[string]string {
	p.t.Helper()
	out := map[string]string{}
	for _, line := range strings.Split(p.run("state", "ls").Stdout, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) == 0 || strings.Contains(f[0], "pulumi:providers:") {
			continue
		}
		out[f[0]] = strings.Join(f[1:], " ")
	}
	return out
}

// changes are the lines of an up's update section that report a finished
// step, without durations.
func changes(out string) []string {
	_, upd, _ := strings.Cut(out, "Updating stack")
	done := regexp.MustCompile(`^(\+|~|\+-|-|--) (created|updated|replaced|deleted)( original)? \S+ \([^)]+\)`)
	var got []string
	for _, l := range strings.Split(upd, "\n") {
		if m := done.FindString(strings.TrimSpace(l)); m != "" {
			got = append(got, m)
		}
	}
	sort.Strings(got)
	return got
}

// TestComponentLifecycle drives a component built by an out-of-process SDK
// provider through the CLI: its children are created under it, updated in
// place when an input changes, replaced when a replace-on-change input
// changes, one is deleted when the component stops registering it, and all
// are deleted with the component when the program drops it. The component
// itself is updated whenever its inputs change, as pulumi counts it.
func TestComponentLifecycle(t *testing.T) {
	p := newProject(t)
	steps := []struct {
		name, program string
		changes       []string
		state         map[string]string
	}{
		{"create", site("[a, b]", "one", "east"),
			[]string{"+ created a (comp:index:Item)", "+ created b (comp:index:Item)", "+ created web (comp:index:Site)"},
			map[string]string{siteURN: "", itemURN + "a": "east/a", itemURN + "b": "east/b"}},
		{"update in place", site("[a, b]", "two", "east"),
			[]string{"~ updated a (comp:index:Item)", "~ updated b (comp:index:Item)", "~ updated web (comp:index:Site)"},
			map[string]string{siteURN: "", itemURN + "a": "east/a", itemURN + "b": "east/b"}},
		{"replace", site("[a, b]", "two", "west"),
			[]string{"+- replaced a (comp:index:Item)", "+- replaced b (comp:index:Item)",
				"-- deleted original a (comp:index:Item)", "-- deleted original b (comp:index:Item)", "~ updated web (comp:index:Site)"},
			map[string]string{siteURN: "", itemURN + "a": "west/a", itemURN + "b": "west/b"}},
		{"drop a child", site("[a]", "two", "west"),
			[]string{"- deleted b (comp:index:Item)", "~ updated web (comp:index:Site)"},
			map[string]string{siteURN: "", itemURN + "a": "west/a"}},
		{"remove the component", noComponent,
			[]string{"- deleted a (comp:index:Item)", "- deleted web (comp:index:Site)"},
			map[string]string{}},
	}
	for _, s := range steps {
		p.program(s.program)
		up := p.run("up", "--yes")
		if diff := cmp.Diff(s.changes, changes(up.Stdout)); diff != "" {
			t.Errorf("%s: steps (-want +got):\n%s\n%s", s.name, diff, up.Output())
		}
		if diff := cmp.Diff(s.state, p.rows()); diff != "" {
			t.Errorf("%s: state (-want +got):\n%s", s.name, diff)
		}
		if s.name == "create" {
			if out := p.run("stack", "output", "count").Stdout; strings.TrimSpace(out) != "2" {
				t.Errorf("the component's output count is %q, want 2", out)
			}
		}
	}
}

// TestComponentChildFails makes the component register a child its
// provider refuses: the up fails naming the child and the reason, the
// children already made are recorded under the component, the state stays
// integral (state ls works), and once the program is fixed the next up
// succeeds.
func TestComponentChildFails(t *testing.T) {
	p := newProject(t)
	p.program(site("[a, refuse, c]", "one", "east"))
	up := p.try("up", "--yes")
	if up.Code == 0 {
		t.Fatalf("up with a refused child succeeded:\n%s", up.Output())
	}
	for _, want := range []string{`items named "refuse" are refused`, "refuse"} {
		if !strings.Contains(up.Output(), want) {
			t.Errorf("the failed up does not say %q:\n%s", want, up.Output())
		}
	}
	// Once among the errors (the step's line shows it too): the
	// component's Construct relays it, and was reported as a second error.
	if n := strings.Count(up.Stderr, `items named "refuse" are refused`); n != 1 {
		t.Errorf("the failed up reports the child's failure %d times among its errors, want once:\n%s", n, up.Output())
	}
	rows := p.rows()
	if _, ok := rows[itemURN+"a"]; !ok {
		t.Errorf("the child made before the failure is not recorded: %v", rows)
	}
	if _, ok := rows[itemURN+"refuse"]; ok {
		t.Errorf("the refused child is recorded: %v", rows)
	}
	p.verify()
	p.program(site("[a, c]", "one", "east"))
	p.run("up", "--yes")
	want := map[string]string{siteURN: "", itemURN + "a": "east/a", itemURN + "c": "east/c"}
	if diff := cmp.Diff(want, p.rows()); diff != "" {
		t.Errorf("state after the fix (-want +got):\n%s", diff)
	}
}

// verify checks the stack's exported state with state.Verify.
func (p *project) verify() {
	p.t.Helper()
	snap, _, err := state.DecodeExport([]byte(p.run("state", "export").Stdout), nil)
	if err != nil {
		p.t.Fatalf("decoding the exported state: %v", err)
	}
	if err := snap.Verify(); err != nil {
		p.t.Errorf("the state is not integral: %v", err)
	}
}
