package tfplugin

import (
	"context"
	"crypto/sha256"
	"sync"
)

// validations remembers the provider's answers to ValidateResourceConfig,
// by resource type and configuration, for the life of the process.
//
// Validation is a function of the type and the configuration alone: the
// protocol has terraform call it before the provider is configured, with
// nothing else to go on. So n instances with the same configuration (a
// counted resource whose arguments do not use count.index, a module
// called with the same arguments) need one call, not n, and the
// diagnostics of that call are every one's. A call that failed (the
// provider crashed, the call was cancelled) is not remembered: the next
// asks again.
type validations struct {
	mu      sync.Mutex
	answers map[string]*validation
}

// validation is one configuration's answer; done is closed once it is in.
type validation struct {
	done  chan struct{}
	diags []diagnostic
	err   error
}

// validateResource is wire.validateResourceConfig through the memory: a
// configuration already validated (or being validated) by another call
// gets that call's diagnostics.
func (p *Provider) validateResource(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error) {
	key := validationKey(typeName, config)
	v, first := p.validated.claim(key)
	if first {
		v.diags, v.err = p.wire.validateResourceConfig(ctx, typeName, config)
		p.validated.settle(key, v)
		return v.diags, v.err
	}
	select {
	case <-v.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if v.err != nil {
		return p.wire.validateResourceConfig(ctx, typeName, config)
	}
	return v.diags, nil
}

// validationKey names a type's configuration by its SHA-256, so that a
// run of many resources with large, distinct configurations keeps 32
// bytes of each, not the configuration.
func validationKey(typeName string, config dynamicValue) string {
	h := sha256.New()
	writeField(h, []byte(typeName))
	writeField(h, config.msgpack)
	writeField(h, config.json)
	return string(h.Sum(nil))
}

// claim returns key's validation, and whether the caller is the first to
// ask and so must make the call and settle it.
func (m *validations) claim(key string) (*validation, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.answers[key]; ok {
		return v, false
	}
	if m.answers == nil {
		m.answers = map[string]*validation{}
	}
	v := &validation{done: make(chan struct{})}
	m.answers[key] = v
	return v, true
}

// settle publishes a validation's answer; a failed call is forgotten.
func (m *validations) settle(key string, v *validation) {
	if v.err != nil {
		m.mu.Lock()
		delete(m.answers, key)
		m.mu.Unlock()
	}
	close(v.done)
}
