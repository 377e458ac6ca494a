package state

import (
	"encoding/json"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// EntryKind says where in a step a journal entry was written.
type EntryKind uint8

// Begin is written (and durable) before the provider is called; End after
// it returned successfully; Fail after it returned an error that left the
// world unchanged. Write records a change that needs no provider call.
const (
	Begin EntryKind = iota + 1
	End
	Fail
	Write
)

func (k EntryKind) String() string {
	switch k {
	case Begin:
		return "begin"
	case End:
		return "end"
	case Fail:
		return "fail"
	case Write:
		return "write"
	}
	return "unknown"
}

// Op is the operation a journal entry records.
type Op string

// The operations. Their effect when they end (or are written):
//
//	create     add New
//	replace    mark Old as pending deletion, add New (create before delete)
//	update     put New in Old's place
//	delete     remove Old; or, if New is given (Old marked Missing), put
//	           New in Old's place: deleted, but kept so that what refers
//	           to it stays whole until its replacement is created
//	read       put New in Old's place, or remove Old if New is nil (refresh)
//	import     add New
//	same       put New in Old's place (no provider call: metadata changed)
//	remove     remove Old from state only (retainOnDelete, state rm)
//	outputs    set the stack outputs
//	resolve    drop the pending operations on New.URN (state pending)
//	rename     put New (a new URN) in Old's place, and make every reference
//	           to Old's URN name New's (an alias took over a resource)
const (
	OpCreate  Op = "create"
	OpReplace Op = "replace"
	OpUpdate  Op = "update"
	OpDelete  Op = "delete"
	OpRead    Op = "read"
	OpImport  Op = "import"
	OpSame    Op = "same"
	OpRemove  Op = "remove"
	OpOutputs Op = "outputs"
	OpResolve Op = "resolve"
	OpRename  Op = "rename"
)

// Entry is one journal record.
type Entry struct {
	// Seq orders entries; the journal assigns it.
	Seq uint64
	// Step ties a Begin to its End or Fail; the engine assigns it, unique
	// within one operation.
	Step    uint64
	Kind    EntryKind
	Op      Op
	Old     *Resource
	New     *Resource
	Outputs resource.Object
	// OutputTypes go with Outputs in an outputs entry (see
	// Snapshot.OutputTypes).
	OutputTypes map[string]json.RawMessage
	Time        time.Time
}
