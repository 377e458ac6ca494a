package yaml

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// exprKind says what an expression is.
type exprKind uint8

const (
	exprLiteral exprKind = iota // null, bool, number or string
	exprInterp                  // a string with ${...} inside text
	exprRef                     // a whole-string ${...}: keeps the type
	exprList
	exprObject
	exprCall // an fn:: function
)

// expr is a value in the program as written: a tree of literals, lists,
// objects, references and function calls, each with its position.
type expr struct {
	kind  exprKind
	at    pos
	where string // program path, e.g. resources.pet.properties.length

	lit   resource.Value // exprLiteral
	parts []part         // exprInterp
	ref   *ref           // exprRef
	// more holds what lists, objects and calls need, so that the many
	// literals and references of a large program do not carry it: an
	// expr is 112 bytes with it apart, 208 with it inline.
	more *compound
}

// compound is the part of an expr only lists, objects and calls use.
type compound struct {
	elems []*expr     // exprList
	keys  []string    // exprObject, in order
	vals  []*expr     // exprObject
	fn    string      // exprCall: the name after "fn::"
	arg   *expr       // exprCall
	call  *invokeSpec // exprCall for fn::invoke
}

// compound returns e's compound part for writing, making it if need be.
func (e *expr) compound() *compound {
	if e.more == nil {
		e.more = &compound{}
	}
	return e.more
}

// orEmpty is e's compound part for reading: an empty one if it has none.
func (e *expr) orEmpty() *compound {
	if e.more == nil {
		return &noCompound
	}
	return e.more
}

// noCompound is what orEmpty returns for an expr without a compound
// part. It is never written.
var noCompound compound

func (e *expr) elems() []*expr    { return e.orEmpty().elems }
func (e *expr) keys() []string    { return e.orEmpty().keys }
func (e *expr) vals() []*expr     { return e.orEmpty().vals }
func (e *expr) fn() string        { return e.orEmpty().fn }
func (e *expr) arg() *expr        { return e.orEmpty().arg }
func (e *expr) call() *invokeSpec { return e.orEmpty().call }

// invokeSpec is fn::invoke's argument, checked when the program loads.
type invokeSpec struct {
	token    string
	pkg      string
	args     *expr
	ret      string
	provider *ref
	version  string
	at       pos
	where    string
}

// parseExpr turns a YAML node into an expression.
func (r *reader) parseExpr(n *yaml.Node, where string, depth int) *expr {
	if n = r.resolve(n); n == nil {
		return nil
	}
	if depth > maxDepth {
		r.errorf(at(n), where, "Value nested too deeply", "Values may nest at most %d levels deep. Flatten this value.", maxDepth)
		return nil
	}
	e := &expr{at: at(n), where: where}
	switch n.Kind {
	case yaml.ScalarNode:
		return r.parseScalar(n, e)
	case yaml.SequenceNode:
		e.kind = exprList
		for i, item := range n.Content {
			el := r.parseExpr(item, where+"["+strconv.Itoa(i)+"]", depth+1)
			if el == nil {
				return nil
			}
			e.compound().elems = append(e.elems(), el)
		}
		return e
	case yaml.MappingNode:
		return r.parseMapping(n, e, depth)
	}
	return nil
}

func (r *reader) parseScalar(n *yaml.Node, e *expr) *expr {
	if n.ShortTag() != "!!str" {
		v, err := scalar(n)
		if err != nil {
			r.errorf(e.at, e.where, "Invalid value", "%s.", capitalize(err.Error()))
			return nil
		}
		e.kind, e.lit = exprLiteral, v
		return e
	}
	parts, err := parseInterpolation(n.Value)
	if err != nil {
		r.errorf(e.at, e.where, "Invalid interpolation", "%s.", capitalize(err.Error()))
		return nil
	}
	for _, p := range parts {
		if p.ref != nil {
			p.ref.at, p.ref.where = e.at, e.where
		}
	}
	switch {
	case len(parts) == 1 && parts[0].ref != nil:
		e.kind, e.ref = exprRef, parts[0].ref
	case len(parts) == 1:
		e.kind, e.lit = exprLiteral, resource.NewString(parts[0].text)
	default:
		e.kind, e.parts = exprInterp, parts
	}
	return e
}

func (r *reader) parseMapping(n *yaml.Node, e *expr, depth int) *expr {
	entries, ok := r.mapping(n, e.where, "This value")
	if !ok {
		return nil
	}
	for _, en := range entries {
		if name, isFn := strings.CutPrefix(en.key, "fn::"); isFn {
			if len(entries) != 1 {
				r.errorf(en.at, e.where, "Invalid function call",
					"A mapping that calls %s must hold only that key, but this one has %d keys. Move the other keys elsewhere.", en.key, len(entries))
				return nil
			}
			return r.parseCall(en, name, e, depth)
		}
	}
	e.kind = exprObject
	for _, en := range entries {
		v := r.parseExpr(en.value, joinPath(e.where, en.key), depth+1)
		if v == nil {
			return nil
		}
		e.compound().keys = append(e.keys(), en.key)
		e.compound().vals = append(e.vals(), v)
	}
	return e
}

// refs calls f for every reference whose value the expression uses.
// References in fn::invoke's provider option are not values; see
// schedulingRefs.
func (e *expr) refs(f func(*ref)) {
	if e == nil {
		return
	}
	switch e.kind {
	case exprRef:
		f(e.ref)
	case exprInterp:
		for _, p := range e.parts {
			if p.ref != nil {
				f(p.ref)
			}
		}
	case exprList:
		for _, el := range e.elems() {
			el.refs(f)
		}
	case exprObject:
		for _, v := range e.vals() {
			v.refs(f)
		}
	case exprCall:
		e.arg().refs(f)
		if e.call() != nil {
			e.call().args.refs(f)
		}
	}
}

// invokes calls f for every fn::invoke in the expression.
func (e *expr) invokes(f func(*invokeSpec)) {
	if e == nil {
		return
	}
	switch e.kind {
	case exprList:
		for _, el := range e.elems() {
			el.invokes(f)
		}
	case exprObject:
		for _, v := range e.vals() {
			v.invokes(f)
		}
	case exprCall:
		if e.call() != nil {
			f(e.call())
			e.call().args.invokes(f)
		}
		e.arg().invokes(f)
	}
}

// blocks reports whether evaluating the expression may wait on the network
// or a provider (fn::invoke, remote assets), so it runs off the scheduler.
func (e *expr) blocks() bool {
	if e == nil {
		return false
	}
	switch e.kind {
	case exprList:
		return anyBlocks(e.elems())
	case exprObject:
		return anyBlocks(e.vals())
	case exprCall:
		switch e.fn() {
		case "invoke", "remoteAsset", "remoteArchive":
			return true
		}
		return e.arg().blocks()
	}
	return false
}

func anyBlocks(es []*expr) bool {
	for _, e := range es {
		if e.blocks() {
			return true
		}
	}
	return false
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
