package display

import (
	"sort"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// OutputChanges compares the recorded stack outputs with those a preview
// computed and returns, per output name, whether it is added, updated or
// deleted. An output whose new value is unknown until the update runs
// counts as updated, as terraform's "(known after apply)" does; one that
// only became (or stopped being) secret is not a change.
func OutputChanges(before, after resource.Object) map[string]resource.DiffKind {
	out := map[string]resource.DiffKind{}
	for p, d := range resource.DiffObjects(before, after, nil) {
		root := rootOf(p)
		if d.Kind != resource.DiffUpdate && root != p {
			d.Kind = resource.DiffUpdate // a change inside an output changes it
		}
		out[root] = d.Kind
	}
	return out
}

// outputChangeLines renders a preview's output changes:
//
//	Outputs:
//	  + added:   "value"
//	  ~ changed: "old" => [unknown]
//	  - removed: "old"
func outputChangeLines(p painter, before, after resource.Object, changes map[string]resource.DiffKind) []string {
	if len(changes) == 0 {
		return nil
	}
	names := make([]string, 0, len(changes))
	width := 0
	for n := range changes {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	lines := []string{"Outputs:"}
	for _, n := range names {
		k := changes[n]
		line := "  " + p.paint(diffColours[k], diffSymbols[k]+" "+n) + ":" + strings.Repeat(" ", width-len(n)) + " "
		switch k {
		case resource.DiffAdd:
			line += Value(after[n])
		case resource.DiffDelete:
			line += Value(before[n])
		default:
			line += Value(before[n]) + " => " + Value(after[n])
		}
		lines = append(lines, line)
	}
	return lines
}

// outputCount is the summary's word for output changes: "1 output to
// change".
func outputCount(n int) string {
	if n == 1 {
		return "1 output to change"
	}
	return itoa(n) + " outputs to change"
}
