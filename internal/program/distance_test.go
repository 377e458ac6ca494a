package program

import "testing"

func TestEditDistance(t *testing.T) {
	tests := map[string]struct {
		a, b string
		want int
	}{
		"equal":         {"random_pet", "random_pet", 0},
		"both empty":    {"", "", 0},
		"from empty":    {"", "abc", 3},
		"to empty":      {"abc", "", 3},
		"substitution":  {"lenght", "length", 2},
		"insertion":     {"pet", "pets", 1},
		"deletion":      {"content", "contnt", 1},
		"kitten":        {"kitten", "sitting", 3},
		"case matters":  {"Name", "name", 1},
		"by bytes":      {"é", "e", 2},
		"long distinct": {"module.site[\"alpha\"].local_file.page[1]", "module.site[\"alpha\"].local_file.page[2]", 1},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := EditDistance(tt.a, tt.b); got != tt.want {
				t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := EditDistance(tt.b, tt.a); got != tt.want {
				t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetry)", tt.b, tt.a, got, tt.want)
			}
		})
	}
}
