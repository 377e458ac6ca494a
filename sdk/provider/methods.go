package provider

import (
	"context"
	"time"
)

// Check implements Provider.
func (s *server) Check(ctx context.Context, req CheckRequest) (CheckResponse, error) {
	return guarded(s, ctx, "Check", req.URN, func(ctx context.Context, h resourceHandler) (CheckResponse, error) {
		return h.check(ctx, req)
	})
}

// Diff implements Provider.
func (s *server) Diff(ctx context.Context, req DiffRequest) (DiffResponse, error) {
	return guarded(s, ctx, "Diff", req.URN, func(ctx context.Context, h resourceHandler) (DiffResponse, error) {
		return h.diff(ctx, req)
	})
}

// Create implements Provider.
func (s *server) Create(ctx context.Context, req CreateRequest) (CreateResponse, error) {
	return guarded(s, ctx, "Create", req.URN, func(ctx context.Context, h resourceHandler) (CreateResponse, error) {
		ctx, cancel := withTimeout(ctx, req.Timeout)
		defer cancel()
		return h.create(ctx, req)
	})
}

// Read implements Provider.
func (s *server) Read(ctx context.Context, req ReadRequest) (ReadResponse, error) {
	return guarded(s, ctx, "Read", req.URN, func(ctx context.Context, h resourceHandler) (ReadResponse, error) {
		return h.read(ctx, req)
	})
}

// Update implements Provider.
func (s *server) Update(ctx context.Context, req UpdateRequest) (UpdateResponse, error) {
	return guarded(s, ctx, "Update", req.URN, func(ctx context.Context, h resourceHandler) (UpdateResponse, error) {
		ctx, cancel := withTimeout(ctx, req.Timeout)
		defer cancel()
		return h.update(ctx, req)
	})
}

// Delete implements Provider.
func (s *server) Delete(ctx context.Context, req DeleteRequest) (DeleteResponse, error) {
	return guarded(s, ctx, "Delete", req.URN, func(ctx context.Context, h resourceHandler) (DeleteResponse, error) {
		ctx, cancel := withTimeout(ctx, req.Timeout)
		defer cancel()
		return DeleteResponse{}, h.delete(ctx, req)
	})
}

// withTimeout bounds ctx by a request's timeout; zero means none.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}
