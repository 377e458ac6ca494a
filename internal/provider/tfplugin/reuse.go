package tfplugin

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash"
)

// A kept plan is the result of a preview's PlanResourceChange, handed to
// the engine as a CreateResponse's or UpdateResponse's Plan so that the
// create or update of the same `plinth up` can apply it instead of
// planning again (provider.CreateRequest.Plan). It is only ever used when
// its sum matches the plan request the apply would send: the same
// provider and version, the same provider configuration, the same
// resource type and schema version, and byte for byte the same prior
// state, configuration and prior private data. Anything else (an input
// that was unknown in the preview, state written in between, a provider
// configured differently) plans again. It lives in memory only: the
// engine never writes it anywhere.
type keptPlan struct {
	Sum     []byte `json:"sum"`
	State   []byte `json:"state"`
	Private []byte `json:"private,omitempty"`
	Legacy  bool   `json:"legacy,omitempty"`
}

// planSum is what a kept plan must match: everything PlanResourceChange
// is asked with, and the provider configuration it was asked under.
func (p *Provider) planSum(t target, req planRequest) []byte {
	h := sha256.New()
	for _, b := range [][]byte{
		[]byte(p.cfg.Name), []byte(p.cfg.Version), p.configSum(), []byte(req.typeName),
		binary.BigEndian.AppendUint64(nil, uint64(t.s.version)),
		req.prior.msgpack, req.config.msgpack, req.priorPrivate,
	} {
		writeField(h, b)
	}
	return h.Sum(nil)
}

func writeField(h hash.Hash, b []byte) {
	_, _ = h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(b))))
	_, _ = h.Write(b)
}

// keep encodes a plan so that it can be reused; nil if the
// configuration is not wholly known (the apply's will differ).
func (p *Provider) keep(t target, pl planned) []byte {
	if !pl.config.IsWhollyKnown() || !p.configKnown() {
		return nil
	}
	state, err := encodedOr(pl.raw, pl.state, t.ty)
	if err != nil {
		return nil
	}
	b, err := json.Marshal(keptPlan{Sum: p.planSum(t, pl.request), State: state.msgpack, Private: pl.private, Legacy: pl.legacy})
	if err != nil {
		return nil
	}
	return b
}

// reuse returns the kept plan in b if it was made from exactly req.
func (p *Provider) reuse(t target, req planRequest, b []byte) (planned, bool) {
	if len(b) == 0 {
		return planned{}, false
	}
	var k keptPlan
	if err := json.Unmarshal(b, &k); err != nil || string(k.Sum) != string(p.planSum(t, req)) {
		return planned{}, false
	}
	state, err := decode(dynamicValue{msgpack: k.State}, t.ty)
	if err != nil {
		return planned{}, false
	}
	return planned{state: state, raw: dynamicValue{msgpack: k.State}, private: k.Private, legacy: k.Legacy, request: req}, true
}

// providerConfig is what a kept plan remembers of the provider's
// configuration: a sum of it, and whether it was wholly known (a
// preview's may not be).
type providerConfig struct {
	sum   [sha256.Size]byte
	known bool
}

// configSum is the sum of the configuration the provider was given.
func (p *Provider) configSum() []byte {
	if c := p.config.Load(); c != nil {
		return c.sum[:]
	}
	return nil
}

// configKnown reports whether the provider was configured with no
// unknown values.
func (p *Provider) configKnown() bool {
	c := p.config.Load()
	return c != nil && c.known
}
