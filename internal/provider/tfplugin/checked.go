package tfplugin

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// configuration is a resource's configuration value, with its msgpack
// encoding when it was already made.
type configuration struct {
	value   cty.Value
	encoded dynamicValue
}

// encode is the configuration's encoding, made now if it was not.
func (c configuration) encode(ty cty.Type) (dynamicValue, error) {
	return encodedOr(c.encoded, c.value, ty)
}

// checkedConfigs keeps the configuration each resource's last Check
// built from its inputs and encoded to validate it. The engine checks a
// resource and then hands Check's inputs to its Create, Update or Diff,
// which would build and encode the same configuration again; they take it
// from here instead when their inputs equal what Check returned. An
// entry is taken at most once; a Check that no call follows leaves one
// entry per resource, which the next Check of that resource replaces.
// At most maxChecked are kept: checks that run far ahead of their calls
// (a large stack registered at once) build again rather than hold a
// configuration each.
type checkedConfigs struct {
	mu sync.Mutex
	m  map[resource.URN]checkedConfig
}

const maxChecked = 4096

type checkedConfig struct {
	inputs resource.Object // what Check returned
	config configuration
}

// keep records what Check of urn built from the inputs it returns.
func (c *checkedConfigs) keep(urn resource.URN, inputs resource.Object, config configuration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[resource.URN]checkedConfig{}
	}
	if _, ok := c.m[urn]; !ok && len(c.m) >= maxChecked {
		return
	}
	c.m[urn] = checkedConfig{inputs: inputs, config: config}
}

// take returns, and forgets, the configuration Check built for urn if it
// was built from inputs equal to these.
func (c *checkedConfigs) take(urn resource.URN, inputs resource.Object) (configuration, bool) {
	c.mu.Lock()
	k, ok := c.m[urn]
	if ok {
		delete(c.m, urn)
	}
	c.mu.Unlock()
	if !ok || !k.inputs.Equal(inputs) {
		return configuration{}, false
	}
	return k.config, true
}

// configOf is the configuration t's inputs make: Check's, if it built it
// from the same inputs, else built now.
func (p *Provider) configOf(t target, inputs resource.Object) (configuration, error) {
	if c, ok := p.checked.take(t.urn, inputs); ok {
		return c, nil
	}
	v, err := t.config(inputs)
	return configuration{value: v}, err
}
