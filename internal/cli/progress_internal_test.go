package cli

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProgressBar: the line is redrawn in place as whole percentages
// pass, and ended when the download ends; an unknown size shows "?" until
// the end.
func TestProgressBar(t *testing.T) {
	for name, tc := range map[string]struct {
		size   int64
		writes []int
		want   []string
	}{
		"known size": {size: 4 << 20, writes: []int{1 << 20, 1, 1 << 20, 2 << 20}, want: []string{
			"  p.zip [                              ]   0% 0.0 MiB/4.0 MiB",
			"  p.zip [======>                       ]  25% 1.0 MiB/4.0 MiB",
			"  p.zip [==============>               ]  50% 2.0 MiB/4.0 MiB",
			"  p.zip [==============================] 100% 4.0 MiB/4.0 MiB",
			"  p.zip [==============================] 100% 4.0 MiB/4.0 MiB\n",
		}},
		"unknown size": {size: -1, writes: []int{1 << 20}, want: []string{
			"  p.zip [                              ]   0% 0.0 MiB/?",
			"  p.zip [==============================] 100% 1.0 MiB/1.0 MiB\n",
		}},
	} {
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			w, done := progressBars(&out)("p.zip", tc.size)
			for _, n := range tc.writes {
				w.Write(make([]byte, n))
			}
			done()
			got := strings.Split(out.String(), "\r")[1:]
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
