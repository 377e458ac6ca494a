package provider

import "context"

// Check implements Provider.
func (s *server) Check(ctx context.Context, req CheckRequest) (CheckResponse, error) {
	return guarded(s, ctx, "Check", req.URN, 0, func(c call, h resourceHandler) (CheckResponse, error) {
		return h.check(c, req)
	})
}

// Diff implements Provider.
func (s *server) Diff(ctx context.Context, req DiffRequest) (DiffResponse, error) {
	return guarded(s, ctx, "Diff", req.URN, 0, func(c call, h resourceHandler) (DiffResponse, error) {
		return h.diff(c, req)
	})
}

// Create implements Provider.
func (s *server) Create(ctx context.Context, req CreateRequest) (CreateResponse, error) {
	return guarded(s, ctx, "Create", req.URN, req.Timeout, func(c call, h resourceHandler) (CreateResponse, error) {
		return h.create(c, req)
	})
}

// Read implements Provider.
func (s *server) Read(ctx context.Context, req ReadRequest) (ReadResponse, error) {
	return guarded(s, ctx, "Read", req.URN, 0, func(c call, h resourceHandler) (ReadResponse, error) {
		return h.read(c, req)
	})
}

// Update implements Provider.
func (s *server) Update(ctx context.Context, req UpdateRequest) (UpdateResponse, error) {
	return guarded(s, ctx, "Update", req.URN, req.Timeout, func(c call, h resourceHandler) (UpdateResponse, error) {
		return h.update(c, req)
	})
}

// Delete implements Provider.
func (s *server) Delete(ctx context.Context, req DeleteRequest) (DeleteResponse, error) {
	return guarded(s, ctx, "Delete", req.URN, req.Timeout, func(c call, h resourceHandler) (DeleteResponse, error) {
		return DeleteResponse{}, h.delete(c, req)
	})
}
