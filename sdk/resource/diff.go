package resource

import "sort"

// DiffKind says how a property changed.
type DiffKind uint8

// The core change kinds of a detailed diff.
const (
	DiffAdd DiffKind = iota
	DiffUpdate
	DiffDelete
)

func (k DiffKind) String() string {
	switch k {
	case DiffAdd:
		return "add"
	case DiffUpdate:
		return "update"
	case DiffDelete:
		return "delete"
	}
	return "unknown"
}

// PropertyDiff is one entry of a detailed diff. Replace is set when the
// change requires the resource to be replaced; InputDiff when the old value
// came from the old inputs rather than the old state.
type PropertyDiff struct {
	Kind      DiffKind
	Replace   bool
	InputDiff bool
}

// DetailedDiff maps property paths, in text form, to their changes.
type DetailedDiff map[string]PropertyDiff

// Paths returns the changed paths in sorted order.
func (d DetailedDiff) Paths() []string {
	paths := make([]string, 0, len(d))
	for p := range d {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// Replaces reports whether any change requires replacement.
func (d DetailedDiff) Replaces() bool {
	for _, pd := range d {
		if pd.Replace {
			return true
		}
	}
	return false
}

// ReplacePaths returns the sorted paths whose changes require replacement.
func (d DetailedDiff) ReplacePaths() []string {
	var out []string
	for _, p := range d.Paths() {
		if d[p].Replace {
			out = append(out, p)
		}
	}
	return out
}

// DiffObjects compares two objects property by property, descending into
// objects and arrays, and returns a change per differing path. A null
// property and a missing one are the same; an unknown new value is always an
// update; a change of secretness alone is not a change. A change at or under
// one of replaceOnChanges (or above one, covering it) requires replacement.
func DiffObjects(olds, news Object, replaceOnChanges []PropertyPath) DetailedDiff {
	d := differ{out: DetailedDiff{}, replace: replaceOnChanges}
	d.objects(nil, olds, news)
	return d.out
}

type differ struct {
	out     DetailedDiff
	replace []PropertyPath
}

func (d *differ) record(path PropertyPath, kind DiffKind) {
	pd := PropertyDiff{Kind: kind, InputDiff: true}
	for _, r := range d.replace {
		if r.Contains(path) || path.Contains(r) {
			pd.Replace = true
			break
		}
	}
	d.out[path.String()] = pd
}

func (d *differ) objects(path PropertyPath, olds, news Object) {
	for k, o := range olds {
		if n, ok := news[k]; ok && !n.IsNull() {
			if sameScalar(o, n) {
				continue // what values finds, without making the path
			}
			d.values(append(path[:len(path):len(path)], k), o, n)
		} else if !o.IsNull() {
			d.record(append(path[:len(path):len(path)], k), DiffDelete)
		}
	}
	for k, n := range news {
		if o, ok := olds[k]; (!ok || o.IsNull()) && !n.IsNull() {
			d.record(append(path[:len(path):len(path)], k), DiffAdd)
		}
	}
}

func (d *differ) values(path PropertyPath, o, n Value) {
	o, n = o.SecretElement(), n.SecretElement()
	switch {
	case n.IsUnknown():
		d.record(path, DiffUpdate)
	case o.Kind() == ObjectKind && n.Kind() == ObjectKind:
		d.objects(path, o.Object(), n.Object())
	case o.Kind() == ArrayKind && n.Kind() == ArrayKind:
		d.arrays(path, o.Array(), n.Array())
	default:
		if ou, _ := o.Unsecret(); !ou.Equal(unsecretOnly(n)) {
			d.record(path, DiffUpdate)
		}
	}
}

// sameScalar reports whether values would find no change between o and
// n because they are equal known scalars (or anything that is neither two
// objects nor two arrays), so the common unchanged property costs no path.
func sameScalar(o, n Value) bool {
	o, n = o.SecretElement(), n.SecretElement()
	switch {
	case n.IsUnknown():
		return false
	case o.Kind() == ObjectKind && n.Kind() == ObjectKind, o.Kind() == ArrayKind && n.Kind() == ArrayKind:
		return false
	}
	ou, _ := o.Unsecret()
	return ou.Equal(unsecretOnly(n))
}

func unsecretOnly(v Value) Value {
	u, _ := v.Unsecret()
	return u
}

func (d *differ) arrays(path PropertyPath, olds, news []Value) {
	for i := 0; i < max(len(olds), len(news)); i++ {
		p := append(path[:len(path):len(path)], i)
		switch {
		case i >= len(olds):
			d.record(p, DiffAdd)
		case i >= len(news):
			d.record(p, DiffDelete)
		default:
			d.values(p, olds[i], news[i])
		}
	}
}

// Clone returns a copy of the diff; a nil diff gives an empty one.
func (d DetailedDiff) Clone() DetailedDiff {
	c := make(DetailedDiff, len(d))
	for k, v := range d {
		c[k] = v
	}
	return c
}
