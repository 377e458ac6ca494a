package example

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// record is what the example keeps of a server: its state and a hash of
// its write-only password.
type record struct {
	State        ServerState `json:"state"`
	PasswordHash string      `json:"passwordHash,omitempty"`
	// Revision counts the writes; the resource keeps the last it saw in
	// its private state.
	Revision int `json:"revision"`
}

// records keeps one JSON file per server in a directory.
type records struct{ dir string }

func store(ctx context.Context) records {
	return records{dir: provider.GetConfig[Config](ctx).Dir}
}

func (r records) path(id string) string { return filepath.Join(r.dir, id+".json") }

func (r records) read(id string) (record, bool, error) {
	data, err := os.ReadFile(r.path(id))
	if errors.Is(err, os.ErrNotExist) {
		return record{}, false, nil
	}
	if err != nil {
		return record{}, false, err
	}
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil {
		return record{}, false, fmt.Errorf("record %s is not valid JSON: %w", r.path(id), err)
	}
	return rec, true, nil
}

func (r records) write(id string, rec record) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(r.path(id), data, 0o600)
}

func (r records) remove(id string) error {
	err := os.Remove(r.path(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// withTimeout bounds ctx by the op's timeout, when there is one.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}
