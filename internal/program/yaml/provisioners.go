package yaml

import (
	"errors"
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/engine"
)

// provisionerDecl is one entry of a resource's provisioners option:
//
//	provisioners:
//	  - type: local-exec          # or file, or a plugin's name
//	    command: echo ${pet.id}   # the provisioner's own properties
//	    when: destroy             # optional: create (default) or destroy
//	    onFailure: continue       # optional: fail (default) or continue
//	    timeout: 5m               # optional
type provisionerDecl struct {
	typ, when, onFailure string
	timeout              time.Duration
	config               *expr // an object of the provisioner's properties
}

// provisioners reads the provisioners option.
func (r *reader) provisioners(n *yaml.Node, where string) ([]provisionerDecl, bool) {
	items, ok := r.sequence(n, where, "provisioners")
	var out []provisionerDecl
	for i, item := range items {
		w := fmt.Sprintf("%s[%d]", where, i)
		d, good := r.provisioner(item, w)
		ok = ok && good
		out = append(out, d)
	}
	return out, ok
}

func (r *reader) provisioner(n *yaml.Node, where string) (provisionerDecl, bool) {
	d := provisionerDecl{config: &expr{kind: exprObject, at: at(n), where: where}}
	entries, ok := r.mapping(n, where, "a provisioner")
	if !ok {
		return d, false
	}
	for _, en := range entries {
		w := joinPath(where, en.key)
		switch en.key {
		case "type":
			d.typ, ok = r.str(en.value, w, "type")
		case "when":
			d.when, ok = r.choice(en.value, w, "when", "create", "destroy")
		case "onFailure":
			d.onFailure, ok = r.choice(en.value, w, "onFailure", "fail", "continue")
		case "timeout":
			s, good := r.str(en.value, w, "timeout")
			t, err := time.ParseDuration(s)
			if good && (err != nil || t <= 0) {
				r.errorf(at(en.value), w, "Invalid timeout", "%q is not a duration. Write a duration such as \"30s\" or \"5m\".", s)
			}
			d.timeout, ok = t, good && err == nil && t > 0
		default:
			e := r.parseExpr(en.value, w, 1)
			c := d.config.compound()
			c.keys, c.vals = append(c.keys, en.key), append(c.vals, e)
			ok = e != nil
		}
		if !ok {
			return d, false
		}
	}
	if d.typ == "" {
		r.errorf(at(n), where, "Missing provisioner type", "Each provisioner needs a type: local-exec, file, or the name of a provisioner plugin (terraform-provisioner-NAME).")
		return d, false
	}
	return d, true
}

// choice reads a string that must be one of the given values.
func (r *reader) choice(n *yaml.Node, where, what string, allowed ...string) (string, bool) {
	s, ok := r.str(n, where, what)
	for _, a := range allowed {
		if ok && s == a {
			return s, true
		}
	}
	if ok {
		r.errorf(at(n), where, "Invalid "+what, "%s must be %s, not %q.", what, quoteList(allowed, 5), s)
	}
	return "", false
}

// eachExpr calls f for each expression exprs returns that is set,
// without making the list.
func (o *resourceOptions) eachExpr(f func(*expr)) {
	for _, e := range [...]*expr{o.protect, o.retainOnDelete, o.deleteBeforeReplace, o.importID} {
		if e != nil {
			f(e)
		}
	}
	for _, p := range o.provisioners {
		if p.config != nil {
			f(p.config)
		}
	}
}

// exprs are the option expressions whose references the graph follows.
func (o *resourceOptions) exprs() []*expr {
	out := []*expr{o.protect, o.retainOnDelete, o.deleteBeforeReplace, o.importID}
	for _, p := range o.provisioners {
		out = append(out, p.config)
	}
	return out
}

// provisioners evaluates a resource's provisioners.
func (r *run) provisioners(d *resourceDecl) ([]engine.Provisioner, error) {
	var out []engine.Provisioner
	var errs []error
	for _, p := range d.opts.provisioners {
		// Unknown in a preview, where no provisioner runs; the engine
		// refuses any still unknown when one is to run.
		v, err := r.eval(p.config)
		errs = append(errs, err)
		out = append(out, engine.Provisioner{Type: p.typ, Config: v.Object(), When: p.when, OnFailure: p.onFailure, Timeout: p.timeout})
	}
	return out, errors.Join(errs...)
}
