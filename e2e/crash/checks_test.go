package crash_test

import (
	"slices"
	"strings"
)

// checkUncertain runs after a kill, before anything is repaired: every
// object the ledger holds must be recorded or have a create pending on its
// URN, and every recorded object the ledger shows deleted must have a
// delete pending. Anything else is an uncertainty plinth dropped.
func (h *harness) checkUncertain(after string) {
	h.t.Helper()
	w, s := h.world(), h.recorded()
	h.tally.pendingSeen += len(s.Pending)
	inState := map[string]bool{}
	for _, r := range s.things() {
		inState[r.ID] = true
		if _, live := w.live[r.ID]; live || h.tally.assumedDeleted[r.ID] || s.deletePending(r.ID) {
			continue
		}
		h.tally.assumedDeleted[r.ID] = true
		h.violation("after %s, the state records %s as %s, which the ledger shows deleted, and no delete is pending: the delete's outcome was assumed, not left pending", after, r.URN, r.ID)
	}
	for id, urn := range w.live {
		if inState[id] || h.tally.orphans[id] || slices.ContainsFunc(s.pendingOn(urn), isCreate) {
			continue
		}
		h.tally.dropped[id] = true
		h.tally.orphans[id] = true
		h.violation("after %s, the ledger holds %s (%s), which the state neither records nor reports as a pending create: plinth lost track of it", after, id, urn)
	}
}

// resolve plays the user after a kill: for each pending create it looks
// in the ledger for an object of that URN the state does not record, and
// imports it, or clears the pending create if there is none. Pending
// updates and deletes are left to the next command, as docs/cli.md says.
func (h *harness) resolve() {
	h.t.Helper()
	w, s := h.world(), h.recorded()
	inState := map[string]bool{}
	for _, r := range s.things() {
		inState[r.ID] = true
	}
	done := map[string]bool{}
	for _, p := range s.Pending {
		urn := p.Resource.URN
		if !isCreate(p.Op) || done[urn] {
			continue
		}
		done[urn] = true
		var made []string
		for _, id := range w.liveOf(urn) {
			if !inState[id] && !h.tally.orphans[id] {
				made = append(made, id)
			}
		}
		h.resolveOne(urn, made)
	}
}

// resolveOne imports the one object a pending create made, or clears it.
func (h *harness) resolveOne(urn string, made []string) {
	h.t.Helper()
	if len(made) == 0 {
		h.must("state", "pending", "--clear", urn, "--yes")
		h.tally.cleared++
		return
	}
	if len(made) > 1 {
		h.tally.duplicates[urn] = true
		for _, id := range made[1:] {
			h.tally.orphans[id] = true
		}
		h.violation("%s has a pending create and %d objects the state does not record: %s", urn, len(made), strings.Join(made, ", "))
	}
	h.must("state", "pending", "--import", urn, made[0], "--yes")
	h.tally.imported++
}

// checkAgreement runs after a command completed: ledger and state hold
// exactly the same objects, one per URN, and nothing is pending.
func (h *harness) checkAgreement(after string) {
	h.t.Helper()
	w, s := h.world(), h.recorded()
	if len(s.Pending) > 0 {
		h.violation("after %s completed, %d operations are still pending (the first: %s %s)", after, len(s.Pending), s.Pending[0].Op, s.Pending[0].Resource.URN)
	}
	inState := map[string]bool{}
	for _, r := range s.things() {
		inState[r.ID] = true
		switch {
		case r.Delete:
			h.violation("after %s completed, %s (%s) is still awaiting deletion", after, r.URN, r.ID)
		case w.live[r.ID] != r.URN && !h.tally.phantoms[r.ID]:
			h.tally.phantoms[r.ID] = true
			h.violation("after %s completed, the state records %s as %s, which the ledger does not hold", after, r.URN, r.ID)
		}
	}
	h.checkWorld(after, w, inState)
}

// checkWorld finds objects the state does not record (orphans) and URNs
// with more than one object (duplicates).
func (h *harness) checkWorld(after string, w world, inState map[string]bool) {
	h.t.Helper()
	for id, urn := range w.live {
		if !inState[id] && !h.tally.orphans[id] {
			h.tally.orphans[id] = true
			h.violation("after %s completed, the ledger holds %s (%s), which the state does not record: it is orphaned", after, id, urn)
		}
		if ids := w.liveOf(urn); len(ids) > 1 && !h.tally.duplicates[urn] {
			h.tally.duplicates[urn] = true
			h.violation("after %s completed, the ledger holds %d objects for %s: %s", after, len(ids), urn, strings.Join(ids, ", "))
		}
	}
}
