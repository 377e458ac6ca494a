package file

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/plinth-iac/plinth/internal/state"
)

// markFile holds the mark the stack's state last reached (state.Mark),
// rewritten after every journal append. It belongs with the history, not
// the state: copying an older snapshot back, or cutting the journal, does
// not change it, so loading can tell.
const markFile = "mark.json"

var (
	_ state.MarkStore         = (*Backend)(nil)
	_ state.HistoryTailReader = (*Backend)(nil)
)

// ReadMark reads mark.json.
func (b *Backend) ReadMark(_ context.Context, stack string) ([]byte, error) {
	return b.readFile(stack, markFile)
}

// WriteMark rewrites mark.json without syncing it: it is written after
// every journal append, and one lost in a crash only lags behind the
// state (see state.MarkStore).
//
// The file is overwritten in place and then cut to the new length, not
// truncated to nothing first: on ext4, a file truncated to zero and
// written again is flushed when it is closed (auto_da_alloc), which made
// opening and closing mark.json cost as much CPU as the journal's own
// write and sync. A crash in between leaves a mark that does not parse,
// as an empty file did before, and loading then goes by the history.
func (b *Backend) WriteMark(_ context.Context, stack string, data []byte) error {
	p, err := b.path(stack, markFile)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(data, 0)
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return nil
}

// tailBytes is how much of the end of history.jsonl ReadHistoryTail
// reads: many records.
const tailBytes = 16 << 10

// ReadHistoryTail returns the records in the last 16 KiB of
// history.jsonl, in order, so that loading a stack need not read its
// whole history for the last mark.
func (b *Backend) ReadHistoryTail(_ context.Context, stack string) ([][]byte, error) {
	p, err := b.path(stack, historyFile)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	off := max(0, info.Size()-tailBytes)
	data := make([]byte, info.Size()-off)
	if _, err := f.ReadAt(data, off); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	if off > 0 {
		// The first line may be cut: start after it.
		data = data[bytes.IndexByte(data, '\n')+1:]
	}
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(l) > 0 && json.Valid(l) {
			out = append(out, l)
		}
	}
	return out, nil
}
