package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ImportMismatchError reports an import whose program inputs do not
// describe the resource as it exists.
type ImportMismatchError struct {
	URN   resource.URN
	ID    string
	Paths []string
}

func (e *ImportMismatchError) Error() string {
	return fmt.Sprintf("cannot import %s (ID %q): the program's inputs differ from the resource as it exists in these properties: %s; change the program to match the resource, then import again",
		e.URN, e.ID, strings.Join(e.Paths, ", "))
}

// importStep adopts an existing resource: Read by ID, Check the program's
// inputs against what was read, and require that Diff finds no change. An
// import registration with no inputs adopts the resource as read.
func (d *deployment) importStep(c *change) (Registered, error) {
	id := c.reg.ImportID
	if c.old != nil {
		return Registered{}, fmt.Errorf("cannot import %s with ID %q: the state already holds it with ID %q; run `plinth state rm %s` first to adopt another", c.urn, id, c.old.ID, c.urn)
	}
	start := d.started(OpImport, nil, &state.Resource{URN: c.urn, Type: c.reg.Type}, nil)
	nr, err := d.importRead(c, id)
	if err != nil {
		d.done(OpImport, nil, &state.Resource{URN: c.urn, Type: c.reg.Type}, nil, start, err)
		return Registered{}, err
	}
	if err := d.write(state.OpImport, nil, nr); err != nil {
		return Registered{}, err
	}
	d.count(OpImport)
	d.done(OpImport, nil, nr, nil, start, nil)
	return registered(nr), nil
}

func (d *deployment) importRead(c *change, id string) (*state.Resource, error) {
	var read provider.ReadResponse
	err := d.call(0, func(ctx context.Context) (err error) {
		read, err = c.inst.p.Read(ctx, provider.ReadRequest{URN: c.urn, ID: id})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("importing %s: reading ID %q: %w", c.urn, id, err)
	}
	if read.ID == "" {
		return nil, fmt.Errorf("cannot import %s: the provider found no resource with ID %q", c.urn, id)
	}
	news := c.reg.Inputs
	if len(news) == 0 {
		news = read.Inputs // adopt the resource as it is
	}
	c.old = &state.Resource{Inputs: read.Inputs}
	checked, err := d.check(c, news, true)
	c.old = nil
	if err != nil {
		return nil, fmt.Errorf("importing %s: %w", c.urn, err)
	}
	if err := d.importDiff(c, read, checked); err != nil {
		return nil, err
	}
	nr := d.newResource(c.urn, c.reg, checked, c.inst.ref)
	nr.ID, nr.Outputs, nr.Private = read.ID, read.Outputs, read.Private
	markSecretID(nr, checked, false)
	return nr, nil
}

// importDiff requires that the checked inputs describe the resource read.
func (d *deployment) importDiff(c *change, read provider.ReadResponse, checked resource.Object) error {
	var resp provider.DiffResponse
	err := d.call(0, func(ctx context.Context) (err error) {
		resp, err = c.inst.p.Diff(ctx, provider.DiffRequest{URN: c.urn, ID: read.ID, OldInputs: read.Inputs, OldOutputs: read.Outputs, News: checked, Private: read.Private})
		return err
	})
	if err != nil {
		return fmt.Errorf("importing %s: diffing: %w", c.urn, err)
	}
	paths := resp.DetailedDiff.Paths()
	switch resp.Changes {
	case provider.DiffUnknown:
		paths = resource.DiffObjects(read.Inputs, checked, nil).Paths()
	case provider.DiffSome:
		if len(paths) == 0 {
			paths = append(resp.ChangedKeys, resp.ReplaceKeys...)
		}
		if len(paths) == 0 {
			paths = []string{"(the provider named none)"}
		}
	default:
		paths = nil
	}
	if len(paths) > 0 {
		return &ImportMismatchError{URN: c.urn, ID: read.ID, Paths: paths}
	}
	return nil
}
