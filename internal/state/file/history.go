package file

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/plinth-iac/plinth/internal/state"
)

// historyFile holds a stack's update history, one JSON record a line.
const historyFile = "history.jsonl"

var _ state.HistoryStore = (*Backend)(nil)

// AppendHistory appends the record as a line and syncs.
func (b *Backend) AppendHistory(_ context.Context, stack string, record []byte) error {
	p, err := b.path(stack, historyFile)
	if err != nil {
		return err
	}
	if bytes.ContainsAny(record, "\n") || !json.Valid(record) {
		return fmt.Errorf("%s: a history record must be JSON on one line", p)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(p), err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening %s: %w", p, err)
	}
	if err := writeSynced(f, append(record, '\n')); err != nil {
		return fmt.Errorf("appending to %s: %w", p, err)
	}
	return nil
}

// ReadHistory returns the records in order. A last line cut short by a
// crash is dropped.
func (b *Backend) ReadHistory(_ context.Context, stack string) ([][]byte, error) {
	p, err := b.path(stack, historyFile)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	var out [][]byte
	lines := bytes.Split(data, []byte("\n"))
	for i, l := range lines {
		if len(l) == 0 || i == len(lines)-1 && !json.Valid(l) {
			continue
		}
		out = append(out, l)
	}
	return out, nil
}
