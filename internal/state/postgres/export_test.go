package postgres

import "context"

// OpenAtVersion opens the database migrating its schema only as far as
// version, to test migrations from older schemas.
func OpenAtVersion(ctx context.Context, url string, version int) (*Backend, error) {
	b := newBackend(url)
	return b, b.open(ctx, version)
}
