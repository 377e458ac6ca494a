package resource

// Equal reports whether v and w are deeply equal. Secret marks count: a
// secret is equal only to a secret with an equal element. Two unknowns are
// equal to each other.
func (v Value) Equal(w Value) bool {
	kind := v.Kind()
	if kind != w.Kind() {
		return false
	}
	switch kind {
	case NullKind, UnknownKind:
		return true
	case BoolKind:
		return v.Bool() == w.Bool()
	case NumberKind:
		return numbersEqual(v, w)
	case StringKind:
		return v.str == w.str
	case ArrayKind:
		return arraysEqual(v.Array(), w.Array())
	case ObjectKind:
		return v.Object().Equal(w.Object())
	case AssetKind:
		return v.Asset().Equal(w.Asset())
	case ArchiveKind:
		return v.Archive().Equal(w.Archive())
	case ReferenceKind:
		return v.Reference().Equal(w.Reference())
	case SecretKind:
		return v.SecretElement().Equal(w.SecretElement())
	}
	return false
}

func numbersEqual(v, w Value) bool {
	if v.str == "" && w.str == "" {
		return v.Number() == w.Number()
	}
	return v.BigNumber().Cmp(w.BigNumber()) == 0
}

func arraysEqual(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// Equal reports whether two objects have the same keys with equal values.
func (o Object) Equal(p Object) bool {
	if len(o) != len(p) {
		return false
	}
	for k, v := range o {
		w, ok := p[k]
		if !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}
