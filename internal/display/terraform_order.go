package display

import (
	"strconv"
	"strings"
)

// tfAddr is a resource instance address split as terraform orders its
// plan: the module instance path (each step "name" or "name[key]"), then
// whether it is a data source, the type, the name and the instance key.
type tfAddr struct {
	modules []tfStep
	data    bool
	typ     string
	name    tfStep
}

// tfStep is one named, optionally keyed step of an address: a module
// call or a resource.
type tfStep struct {
	name string
	key  string // "" (no key), "0", or `"alpha"` as written
}

// tfAddrLess orders two addresses as terraform 1.11 orders a plan's
// blocks: shallower module instances first (the root module's resources
// before any module's), then module instance paths step by step, then
// data sources before managed resources, then type, name and instance
// key (integer keys numerically: c[2] before c[10]).
func tfAddrLess(a, b string) bool {
	x, y := parseTFAddr(a), parseTFAddr(b)
	if len(x.modules) != len(y.modules) {
		return len(x.modules) < len(y.modules)
	}
	for i := range x.modules {
		if c := x.modules[i].compare(y.modules[i]); c != 0 {
			return c < 0
		}
	}
	switch {
	case x.data != y.data:
		return x.data
	case x.typ != y.typ:
		return x.typ < y.typ
	}
	return x.name.compare(y.name) < 0
}

// compare orders steps by name, then key: no key first, integer keys
// numerically before string keys, string keys lexically.
func (s tfStep) compare(o tfStep) int {
	if s.name != o.name {
		return strings.Compare(s.name, o.name)
	}
	si, sInt := strconv.Atoi(s.key)
	oi, oInt := strconv.Atoi(o.key)
	switch {
	case s.key == o.key:
		return 0
	case s.key == "" || o.key == "":
		return strings.Compare(s.key, o.key)
	case sInt == nil && oInt == nil:
		return si - oi
	case sInt == nil || oInt == nil:
		if sInt == nil {
			return -1
		}
		return 1
	}
	return strings.Compare(s.key, o.key)
}

// parseTFAddr splits an address such as
// `module.site["a.b"].data.local_file.page[1]`; quoted keys may hold
// dots and brackets. An address it cannot split orders by its text as
// the resource's name.
func parseTFAddr(addr string) tfAddr {
	steps := splitTFAddr(addr)
	var a tfAddr
	for len(steps) >= 2 && steps[0].name == "module" && steps[0].key == "" {
		a.modules = append(a.modules, steps[1])
		steps = steps[2:]
	}
	if len(steps) == 3 && steps[0].name == "data" {
		a.data, steps = true, steps[1:]
	}
	if len(steps) != 2 {
		return tfAddr{modules: a.modules, name: tfStep{name: addr}}
	}
	a.typ, a.name = steps[0].name, steps[1]
	return a
}

// splitTFAddr splits an address at the dots outside brackets, each part
// into its name and its bracketed key.
func splitTFAddr(addr string) []tfStep {
	var out []tfStep
	depth, quoted, start := 0, false, 0
	for i := 0; i <= len(addr); i++ {
		if i == len(addr) || addr[i] == '.' && depth == 0 && !quoted {
			part := addr[start:i]
			step := tfStep{name: part}
			if j := strings.IndexByte(part, '['); j >= 0 && strings.HasSuffix(part, "]") {
				step = tfStep{name: part[:j], key: part[j+1 : len(part)-1]}
			}
			out, start = append(out, step), i+1
			continue
		}
		switch c := addr[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == '[':
			depth++
		case !quoted && c == ']':
			depth--
		}
	}
	return out
}
