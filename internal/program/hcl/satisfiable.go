package hcl

import (
	"strconv"
	"strings"

	version "github.com/hashicorp/go-version"
)

// bound is one end of a range of versions; a nil v is unbounded.
type bound struct {
	v         *version.Version
	inclusive bool
}

// versionRange is the versions between lo and hi, minus excluded ones.
type versionRange struct {
	lo, hi   bound
	excluded []*version.Version
}

// satisfiable reports whether some version could meet every constraint
// of a joined constraint string (as joinConstraints writes it). It works
// on the bounds each operator sets, so it needs no list of releases.
func satisfiable(joined string) bool {
	var r versionRange
	for _, a := range strings.Split(joined, ",") {
		m := atomPattern.FindStringSubmatch(a)
		if m == nil {
			continue
		}
		v, err := version.NewVersion(m[2])
		if err != nil {
			continue
		}
		r.add(m[1], m[2], v)
	}
	return !r.empty()
}

// add narrows the range by one constraint OP V.
func (r *versionRange) add(op, text string, v *version.Version) {
	switch op {
	case "", "=":
		r.raise(bound{v, true})
		r.lower(bound{v, true})
	case "!=":
		r.excluded = append(r.excluded, v)
	case ">":
		r.raise(bound{v, false})
	case ">=":
		r.raise(bound{v, true})
	case "<":
		r.lower(bound{v, false})
	case "<=":
		r.lower(bound{v, true})
	case "~>":
		r.raise(bound{v, true})
		if hi := pessimisticLimit(text, v); hi != nil {
			r.lower(bound{hi, false})
		}
	}
}

// pessimisticLimit is the exclusive upper end of ~> V: the next release
// of the segment before the last one written (~> 3.6 is < 4.0, ~> 3.6.1
// is < 3.7.0); ~> 3 has none.
func pessimisticLimit(text string, v *version.Version) *version.Version {
	core, _, _ := strings.Cut(strings.TrimPrefix(text, "v"), "-")
	n := len(strings.Split(core, "."))
	if n < 2 {
		return nil
	}
	segs := v.Segments64()
	next := make([]int64, len(segs))
	copy(next, segs[:n-2])
	next[n-2] = segs[n-2] + 1
	parts := make([]string, len(next))
	for i, s := range next {
		parts[i] = strconv.FormatInt(s, 10)
	}
	out, err := version.NewVersion(strings.Join(parts, "."))
	if err != nil {
		return nil
	}
	return out
}

// raise moves the lower end up to b if b is higher.
func (r *versionRange) raise(b bound) {
	if r.lo.v == nil || b.v.GreaterThan(r.lo.v) || (b.v.Equal(r.lo.v) && !b.inclusive) {
		r.lo = b
	}
}

// lower moves the upper end down to b if b is lower.
func (r *versionRange) lower(b bound) {
	if r.hi.v == nil || b.v.LessThan(r.hi.v) || (b.v.Equal(r.hi.v) && !b.inclusive) {
		r.hi = b
	}
}

// empty reports whether no version lies in the range.
func (r *versionRange) empty() bool {
	if r.lo.v == nil || r.hi.v == nil {
		return false
	}
	if r.lo.v.GreaterThan(r.hi.v) {
		return true
	}
	if !r.lo.v.Equal(r.hi.v) {
		return false
	}
	if !r.lo.inclusive || !r.hi.inclusive {
		return true
	}
	for _, x := range r.excluded {
		if x.Equal(r.lo.v) {
			return true
		}
	}
	return false
}
