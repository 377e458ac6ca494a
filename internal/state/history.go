package state

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"time"
)

// HistoryStore keeps each stack's update history: one record per
// operation, appended when it starts and again when it ends. Every
// backend plinth ships implements it.
type HistoryStore interface {
	// AppendHistory appends one record (JSON) durably.
	AppendHistory(ctx context.Context, stack string, record []byte) error
	// ReadHistory returns the stack's records in the order appended,
	// none if it has no history.
	ReadHistory(ctx context.Context, stack string) ([][]byte, error)
}

// The results an operation records.
const (
	// ResultUnfinished: no end was recorded. The operation runs now, or
	// was killed (the next operation recovers what it recorded).
	ResultUnfinished  = "unfinished"
	ResultSucceeded   = "succeeded"
	ResultFailed      = "failed"
	ResultInterrupted = "interrupted"
)

// Operation is one entry of a stack's update history.
type Operation struct {
	// ID tells the records of one operation apart from others'; the end
	// record supersedes the start record with the same ID.
	ID   string `json:"id"`
	Kind string `json:"kind"`
	User string `json:"user,omitempty"`
	Host string `json:"host,omitempty"`
	PID  int    `json:"pid,omitempty"`
	// Started and Ended are when it ran; Ended is nil while it runs, or
	// if it was killed.
	Started time.Time  `json:"started"`
	Ended   *time.Time `json:"ended,omitempty"`
	Result  string     `json:"result"`
	// Steps counts the resources per step kind ("create", "update",
	// "same", ...).
	Steps   map[string]int `json:"steps,omitempty"`
	Version string         `json:"version"`
	// State is the mark the stack's state had reached when the record
	// was written (see Mark): the state's at the start, the new
	// snapshot's at the end.
	State *Mark `json:"state,omitempty"`
}

// NewOperation describes an operation of kind that this process starts
// now, run by plinth version.
func NewOperation(kind, version string) *Operation {
	h := CurrentProcess("")
	var id [8]byte
	_, _ = rand.Read(id[:])
	return &Operation{ID: hex.EncodeToString(id[:]), Kind: kind, User: h.User, Host: h.Host, PID: h.PID,
		Started: time.Now().UTC(), Result: ResultUnfinished, Version: version}
}

// AppendOperation records op in the stack's history, if the backend
// keeps one.
func AppendOperation(ctx context.Context, b Backend, stack string, op *Operation) error {
	hs, ok := b.(HistoryStore)
	if !ok {
		return nil
	}
	data, err := json.Marshal(op)
	if err != nil {
		return err
	}
	if err := hs.AppendHistory(ctx, stack, data); err != nil {
		return fmt.Errorf("recording the history of stack %s: %w", stack, err)
	}
	return nil
}

// History returns the stack's operations, oldest first: for each one the
// last record appended. A backend without history has none.
func History(ctx context.Context, b Backend, stack string) ([]*Operation, error) {
	if err := ValidateStackName(stack); err != nil {
		return nil, err
	}
	hs, ok := b.(HistoryStore)
	if !ok {
		return []*Operation{}, nil
	}
	recs, err := hs.ReadHistory(ctx, stack)
	if err != nil {
		return nil, fmt.Errorf("reading the history of stack %s: %w", stack, err)
	}
	out := []*Operation{}
	at := map[string]int{}
	for i, r := range recs {
		op := &Operation{}
		if err := json.Unmarshal(r, op); err != nil {
			return nil, fmt.Errorf("reading the history of stack %s: record %d is not valid: %w", stack, i+1, err)
		}
		if op.Kind == "" && op.State != nil {
			continue // a mark written after a journal append, no operation
		}
		if j, ok := at[op.ID]; ok && op.ID != "" {
			out[j] = op
			continue
		}
		at[op.ID] = len(out)
		out = append(out, op)
	}
	return out, nil
}

// finish returns the operation as it ended now.
func (op *Operation) finish(result string, steps map[string]int) *Operation {
	c := *op
	now := time.Now().UTC()
	c.Ended, c.Result, c.Steps = &now, result, maps.Clone(steps)
	return &c
}
