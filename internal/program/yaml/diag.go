package yaml

import (
	"fmt"
	"sort"
	"strings"

	"github.com/plinth-iac/plinth/internal/program"
)

// sorted orders diagnostics by position, so reports read top to bottom.
func sorted(ds program.Diagnostics) program.Diagnostics {
	out := append(program.Diagnostics(nil), ds...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Column < out[j].Column
	})
	return out
}

// asError returns the diagnostics as an error if any is an error, else nil.
func asError(ds program.Diagnostics) error {
	if !ds.HasErrors() {
		return nil
	}
	return sorted(ds)
}

// pos is a position in the program file.
type pos struct {
	Line, Column int
}

// diags collects diagnostics for one file.
type diags struct {
	file string
	list program.Diagnostics
}

func (d *diags) errorf(at pos, path, summary, detail string, args ...any) {
	d.add(program.Error, at, path, summary, fmt.Sprintf(detail, args...))
}

func (d *diags) warnf(at pos, path, summary, detail string, args ...any) {
	d.add(program.Warning, at, path, summary, fmt.Sprintf(detail, args...))
}

func (d *diags) add(s program.Severity, at pos, path, summary, detail string) {
	d.list = append(d.list, program.Diagnostic{
		Severity: s, Summary: summary, Detail: detail,
		File: d.file, Line: at.Line, Column: at.Column, Path: path,
	})
}

// suggest returns ` Did you mean "x"?` for the candidate nearest to name,
// or "" when none is near enough to be a likely typo.
func suggest(name string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if bestDist < 0 || d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	limit := max(2, len(name)/3)
	if best == "" || bestDist > limit {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// editDistance is program.EditDistance, except that a name longer than
// 64 bytes is near nothing but itself: the quadratic table stays small
// whatever a program (or a fuzzer) writes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return max(len(a), len(b))
	}
	return program.EditDistance(a, b)
}

// ResourceError is a resource the engine could not register: where the
// program declares it, and the engine's error.
type ResourceError struct {
	program.Diagnostic
	Err error
}

func (e *ResourceError) Unwrap() error { return e.Err }

// plural formats a count of things: "1 item", "3 items".
func plural(n int, thing string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", thing)
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// quoteList formats names as "a", "b" and "c", at most limit of them.
func quoteList(names []string, limit int) string {
	q := make([]string, 0, len(names))
	for i, n := range names {
		if i == limit {
			q = append(q, fmt.Sprintf("and %d more", len(names)-limit))
			break
		}
		q = append(q, fmt.Sprintf("%q", n))
	}
	return strings.Join(q, ", ")
}
