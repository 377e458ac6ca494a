package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// EphemeralOpener is a Monitor that opens ephemeral resources (Terraform's
// ephemeral blocks). The engine renews an open resource when its provider
// asks, and closes it when the returned close function is called or, at
// the latest, when the operation ends (after its deletes, which may need
// a provider configured from the resource's value); nothing about it is
// recorded in the state or the plan.
type EphemeralOpener interface {
	OpenEphemeral(ctx context.Context, req InvokeRequest) (resource.Object, func(context.Context) error, error)
}

var _ EphemeralOpener = monitor{}

// OpenEphemeral implements EphemeralOpener.
func (m monitor) OpenEphemeral(ctx context.Context, req InvokeRequest) (resource.Object, func(context.Context) error, error) {
	inst, err := m.d.prov.forRegistration(&Registration{Type: req.Token, Provider: req.Provider, Version: req.Version})
	if err != nil {
		return nil, nil, fmt.Errorf("opening %s: %w", req.Token, err)
	}
	eph, ok := inst.p.(provider.Ephemeral)
	if !ok {
		return nil, nil, fmt.Errorf("opening %s: the provider has no ephemeral resources", req.Token)
	}
	var resp provider.OpenEphemeralResponse
	err = guard(func() (err error) {
		resp, err = eph.OpenEphemeral(ctx, provider.OpenEphemeralRequest{Token: req.Token, Config: req.Args})
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("opening %s: %w", req.Token, err)
	}
	if len(resp.Failures) > 0 {
		return nil, nil, &InvokeError{Token: req.Token, Failures: resp.Failures}
	}
	h := &ephemeralHandle{p: eph, token: req.Token, private: resp.Private, stop: make(chan struct{})}
	m.d.mu.Lock()
	m.d.ephemerals = append(m.d.ephemerals, h)
	m.d.mu.Unlock()
	go h.renew(resp.RenewAt)
	return resp.Result, h.close, nil
}

// ephemeralHandle is one open ephemeral resource.
type ephemeralHandle struct {
	p       provider.Ephemeral
	token   string
	mu      sync.Mutex
	private []byte
	stop    chan struct{}
	once    sync.Once
}

// renew renews the resource each time the provider asks, until closed.
func (h *ephemeralHandle) renew(at time.Time) {
	for !at.IsZero() {
		t := time.NewTimer(time.Until(at))
		select {
		case <-h.stop:
			t.Stop()
			return
		case <-t.C:
		}
		h.mu.Lock()
		resp, err := h.p.RenewEphemeral(context.Background(), provider.RenewEphemeralRequest{Token: h.token, Private: h.private})
		if err == nil {
			h.private = resp.Private
		}
		h.mu.Unlock()
		if err != nil {
			return
		}
		at = resp.RenewAt
	}
}

// close stops renewing and closes the resource, once.
func (h *ephemeralHandle) close(ctx context.Context) error {
	var err error
	h.once.Do(func() {
		close(h.stop)
		h.mu.Lock()
		defer h.mu.Unlock()
		err = h.p.CloseEphemeral(ctx, provider.CloseEphemeralRequest{Token: h.token, Private: h.private})
		if err != nil {
			err = fmt.Errorf("closing %s: %w", h.token, err)
		}
	})
	return err
}

// closeEphemerals closes the ephemeral resources still open, last opened
// first, and returns the failures.
func (d *deployment) closeEphemerals() error {
	d.mu.Lock()
	hs := d.ephemerals
	d.ephemerals = nil
	d.mu.Unlock()
	var errs []error
	for i := len(hs) - 1; i >= 0; i-- {
		errs = append(errs, hs[i].close(context.WithoutCancel(d.callCtx)))
	}
	return errors.Join(errs...)
}
