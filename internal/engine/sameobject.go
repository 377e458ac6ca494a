package engine

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
)

// The rule behind "No Delete of an ID a live resource holds": a record
// about to be deleted whose ID a live resource took from a provider in
// this operation (a replacement, or a renamed resource) is not deleted in
// the world when the live one is the same object, since the Delete would
// act on what the live one stands for. Equal IDs are not enough to say so:
// a Terraform local_file's ID is its content's hash, and a create-before-
// destroy replacement to a new filename gets the old ID while its Delete
// would remove the old file. So the provider decides: the live resource is
// the same object only if the provider's Diff of the old record against
// the live one's inputs needs no replacement, that is, no input that
// identifies the object (one the provider says forces a new one) differs.
// A replacement the program forced (replaceOnChanges, a taint, --replace)
// or a rename with equal or updatable inputs keeps the protection; one the
// provider demanded deletes the old object with its own state, as
// terraform deletes a deposed object.

// sameObjectHolder returns the live resource that holds r's ID and is the
// same object, claiming the ID from r (see records.claimSharedID); nil if
// there is none or the provider says they differ.
func (d *deployment) sameObjectHolder(r *state.Resource) (*state.Resource, error) {
	h := d.recs.sharedID(r)
	if h == nil {
		return nil, nil
	}
	same, err := d.sameObject(r, h)
	if err != nil || !same {
		return nil, err
	}
	return d.recs.claimSharedID(r), nil
}

// sameObject asks r's provider whether going from r's record to h's inputs
// needs a replacement; if not, h may be r changed in place.
func (d *deployment) sameObject(r, h *state.Resource) (bool, error) {
	inst, err := d.prov.forRef(r.Provider)
	if err != nil {
		return false, fmt.Errorf("deciding whether %s is the object %s now holds (the same ID %s): %w", r.URN, h.URN, shownID(r), err)
	}
	var resp provider.DiffResponse
	err = d.x.call(0, func(ctx context.Context) (err error) {
		resp, err = inst.p.Diff(ctx, provider.DiffRequest{
			URN: h.URN, ID: r.ID, OldInputs: r.Inputs, OldOutputs: r.Outputs, News: h.Inputs, Private: r.Private,
		})
		return err
	})
	if err != nil {
		return false, fmt.Errorf("deciding whether %s is the object %s now holds (the same ID %s): diffing them: %w; it was neither deleted nor dropped, and the next run tries again", r.URN, h.URN, shownID(r), err)
	}
	return !resp.Replaces(), nil
}
