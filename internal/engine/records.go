package engine

import (
	"slices"
	"sync"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// records is the deployment's view of the state as the operation changes
// it: a state.Live, changed by the same rules as the journal's replay, and
// the IDs providers returned in this operation. It is safe for concurrent
// use.
type records struct {
	mu   sync.Mutex
	live *state.Live
	// ids maps a type and ID to the resources that took it from a
	// provider in this operation, at most one a URN, in the order they
	// took it; a hold counts only while that very record is live (see
	// holder). Nearly every ID has one holder: a slice costs 8 bytes
	// where a map of one cost about 250, for every resource created.
	ids map[physical][]*state.Resource
}

// physical names what a custom resource's ID stands for in the world. Only
// the IDs that providers returned in this operation are held: a create
// that comes back with the ID of a recorded resource of its type may have
// made that same thing again (a file at the same path; sameobject.go
// decides). Two records that merely share an ID are not the same thing in
// general (Terraform's local_file takes its ID from the content's hash, so
// two files with one content share it), and both are deleted when they
// leave the program.
type physical struct{ typ, id string }

func newRecords(base *state.Snapshot) *records {
	return &records{live: state.NewLive(base), ids: map[physical][]*state.Resource{}}
}

// current returns the live resource with the URN, or nil.
func (rs *records) current(urn resource.URN) *state.Resource {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.live.Get(urn)
}

// find returns the recorded resource with the URN and ID, live or pending
// deletion.
func (rs *records) find(urn resource.URN, id string) *state.Resource {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r := rs.live.Lookup(state.Key{URN: urn, ID: id}); r != nil {
		return r
	}
	return rs.live.Lookup(state.Key{URN: urn, ID: id, Delete: true})
}

// dependents returns what depends on urn, dependents first (see
// state.Live.Dependents).
func (rs *records) dependents(urn resource.URN) []*state.Resource {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.live.Dependents(urn)
}

// each calls f for every recorded resource, holding the lock: f must not
// call back into rs.
func (rs *records) each(f func(*state.Resource)) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.live.Each(f)
}

// apply applies a recorded change. The journal accepted the same change
// against the same state, so Live refusing it is not expected; as the
// journal is the record, the view simply stays as it was.
func (rs *records) apply(op state.Op, old, nu *state.Resource) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	_ = rs.live.Change(op, old, nu)
	switch op {
	case state.OpCreate, state.OpImport, state.OpReplace:
		rs.hold(nu)
	}
}

// hold records that a live resource took its ID from a provider; rs.mu is
// held.
func (rs *records) hold(r *state.Resource) {
	if !r.Custom || r.External || r.ID == "" || r.ID == UnknownID || isProvider(r.Type) {
		return
	}
	k := physical{r.Type, r.ID}
	hs := rs.ids[k]
	for i, h := range hs {
		if h.URN == r.URN {
			hs[i] = r
			return
		}
	}
	rs.ids[k] = append(hs, r)
}

// claimSharedID returns another live resource that took r's ID from a
// provider in this operation, and makes r stop holding the ID at once, so
// that of two records of one object both being deleted, exactly one is
// deleted in the world. The caller has decided that the holder is the same
// object as r (see sameObjectHolder): equal IDs alone do not make one.
func (rs *records) claimSharedID(r *state.Resource) *state.Resource {
	if !r.Custom || r.ID == "" {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	k := physical{r.Type, r.ID}
	hs := rs.ids[k]
	for _, h := range hs {
		if h != r && rs.live.Get(h.URN) == h {
			if j := slices.Index(hs, r); !r.Delete && j >= 0 {
				rs.ids[k] = slices.Delete(hs, j, j+1)
			}
			return h
		}
	}
	return nil
}

// sharedID returns another live resource that took r's ID from a provider
// in this operation, claiming nothing (see claimSharedID).
func (rs *records) sharedID(r *state.Resource) *state.Resource {
	if !r.Custom || r.ID == "" {
		return nil
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, h := range rs.ids[physical{r.Type, r.ID}] {
		if h != r && rs.live.Get(h.URN) == h {
			return h
		}
	}
	return nil
}
