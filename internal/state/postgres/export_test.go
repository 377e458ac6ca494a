package postgres

import (
	"context"
	"time"
)

// CreateSchema creates plinth's tables at an older schema version, to
// test migrations from it: the backend's methods speak the latest
// schema, so a test writes an older version's rows with its SQL.
func CreateSchema(ctx context.Context, url string, version int) error {
	b := newBackend(Config{URL: url, Project: "schema"})
	defer b.Close()
	return b.open(ctx, version)
}

// SetRegainFor sets how long a lock whose connection died is tried for.
func SetRegainFor(b *Backend, d time.Duration) { b.regainFor = d }
