package provider

import (
	"context"
	"fmt"
	"reflect"
	"strconv"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Configurer is implemented (on the pointer) by a configuration struct that
// must act once its values are decoded: resolve paths, open clients, check
// credentials. It is not called during a preview while the configuration
// still holds unknowns.
type Configurer interface {
	Configure(ctx context.Context) error
}

// WithConfig declares the provider's configuration as the struct C, with
// the same field tags as resource inputs. Resource and function code reads
// the configured value with GetConfig[C]. Without WithConfig the provider
// takes no configuration.
func WithConfig[C any]() Option {
	return func(s *setup) error {
		if s.config != nil {
			return fmt.Errorf("the configuration is declared twice")
		}
		t := reflect.TypeFor[C]()
		c, err := s.types.object(t, "config")
		if err != nil {
			return fmt.Errorf("configuration: %w", err)
		}
		s.config = &configHandler{codec: c, t: t}
		return nil
	}
}

type configKey struct{}

// GetConfig returns the provider's configuration inside resource and
// function code: the value Configure decoded into C. It is C's zero value
// if ctx does not come from a configured provider of that configuration
// type.
func GetConfig[C any](ctx context.Context) C {
	c, _ := ctx.Value(configKey{}).(C)
	return c
}

// reservedConfig are configuration keys the Pulumi engine passes to every
// provider; they are accepted and passed through, never validated.
var reservedConfig = map[string]bool{"version": true, "pluginDownloadURL": true}

type configHandler struct {
	codec *structCodec
	t     reflect.Type
}

// withoutReserved returns o without the reserved keys.
func withoutReserved(o resource.Object) resource.Object {
	out := make(resource.Object, len(o))
	for k, v := range o {
		if !reservedConfig[k] {
			out[k] = v
		}
	}
	return out
}

func (c *configHandler) check(req CheckRequest) CheckResponse {
	news := c.coerce(withoutReserved(req.News))
	var fs []CheckFailure
	c.codec.checkObject(news, nil, &fs)
	out := c.codec.objectWithDefaults(news)
	for k, v := range req.News {
		if reservedConfig[k] {
			out[k] = v
		}
	}
	return CheckResponse{Inputs: out, Failures: fs}
}

// coerce converts top-level strings into the booleans and numbers the
// configuration wants: configuration often arrives as text (command line,
// environment, the legacy string map of the Pulumi protocol).
func (c *configHandler) coerce(o resource.Object) resource.Object {
	for _, f := range c.codec.fields {
		v, ok := o[f.name()]
		if !ok || v.SecretElement().Kind() != resource.StringKind {
			continue
		}
		if nv, ok := coerceString(f.codec, v.SecretElement().Str()); ok {
			o[f.name()] = resource.Sticky(nv, v)
		}
	}
	return o
}

func coerceString(c codec, s string) (resource.Value, bool) {
	if p, ok := c.(ptrCodec); ok {
		c = p.elem
	}
	switch c.(type) {
	case boolCodec:
		b, err := strconv.ParseBool(s)
		return resource.NewBool(b), err == nil
	case intCodec, floatCodec:
		v, err := resource.ParseNumber(s)
		return v, err == nil
	}
	return resource.Value{}, false
}

func (c *configHandler) diff(req DiffRequest) DiffResponse {
	olds := req.OldInputs
	if olds == nil {
		olds = req.OldOutputs
	}
	replace := c.codec.paths(nil, func(t fieldTag) bool { return t.replaceOnChanges })
	dd := resource.DiffObjects(withoutReserved(olds), withoutReserved(req.News), replace)
	return diffResponse(withoutIgnored(dd, req.IgnoreChanges), false)
}

// decode makes a new configuration value from checked inputs.
func (c *configHandler) decode(inputs resource.Object) (reflect.Value, error) {
	ptr := reflect.New(c.t)
	if err := c.codec.decodeObject(withoutReserved(inputs), ptr.Elem()); err != nil {
		return reflect.Value{}, err
	}
	return ptr, nil
}

// CheckConfig implements Provider: the configuration is checked like
// resource inputs, after strings are converted to the booleans and numbers
// the configuration wants.
func (s *server) CheckConfig(_ context.Context, req CheckRequest) (CheckResponse, error) {
	return s.config.check(req), nil
}

// DiffConfig implements Provider. A change to a property tagged
// replaceOnChanges replaces the provider (and so its resources).
func (s *server) DiffConfig(_ context.Context, req DiffRequest) (DiffResponse, error) {
	return s.config.diff(req), nil
}

// Configure implements Provider.
func (s *server) Configure(ctx context.Context, req ConfigureRequest) (resp ConfigureResponse, err error) {
	ptr, err := s.config.decode(req.Inputs)
	if err != nil {
		return resp, fmt.Errorf("provider %s: configuration: %w", s.info.Name, err)
	}
	if cf, ok := ptr.Interface().(Configurer); ok && len(unknownNames(req.Inputs)) == 0 {
		if err := s.runConfigurer(ctx, cf); err != nil {
			return resp, err
		}
	}
	s.mu.Lock()
	s.cfg, s.cfgOK = ptr.Elem().Interface(), true
	s.mu.Unlock()
	return ConfigureResponse{AcceptSecrets: true, AcceptResources: true, SupportsPreview: true}, nil
}

func (s *server) runConfigurer(ctx context.Context, cf Configurer) (err error) {
	ctx, release := s.callContext(ctx)
	defer release()
	defer s.recoverPanic("Configure", "", &err)
	if err := cf.Configure(ctx); err != nil {
		return fmt.Errorf("configuring provider %s: %w", s.info.Name, err)
	}
	return nil
}
