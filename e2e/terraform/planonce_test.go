package terraform

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUpPlansOnce counts the PlanResourceChange calls of each plinth up of
// three resources of the counting fake: the update reuses its preview's
// plan of a create or an update, and its Diff, instead of planning again.
// A create costs one plan, a no-change one (the preview's Diff), and an
// update two (the preview's Diff and its planned Update). Before plan
// reuse they cost two, two and four.
func TestUpPlansOnce(t *testing.T) {
	t.Parallel()
	p := newProject(t, "planonce", fakeDir)
	steps := []struct {
		name string
		edit func()
		want []string
	}{
		{name: "create", want: repeat("plan one", 3)},
		{name: "update", edit: func() { p.write("plinth.yaml", strings.ReplaceAll(p.read("plinth.yaml"), "value: one", "value: two")) },
			want: repeat("plan two", 6)},
		{name: "no change", want: repeat("plan two", 3)},
	}
	for _, s := range steps {
		if s.edit != nil {
			s.edit()
		}
		_ = os.Remove(p.path(plansLog))
		p.must("up", "--yes")
		got := strings.Split(strings.TrimSpace(readOrEmpty(p.path(plansLog))), "\n")
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Errorf("%s: PlanResourceChange calls (-want +got):\n%s", s.name, diff)
		}
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func readOrEmpty(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
