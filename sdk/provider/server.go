package provider

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Info names and describes a provider package. Name is required: it is the
// package part of every type token ("random" in "random:index:Pet").
type Info struct {
	Name        string
	Version     string
	DisplayName string
	Description string
	Homepage    string
	Repository  string
	License     string
	Publisher   string
	Keywords    []string
}

// Option adds something to a provider being built by New: WithConfig,
// WithResource, WithFunction.
type Option func(*setup) error

// setup collects what the options add, then becomes a server.
type setup struct {
	info      Info
	types     *typeBuilder
	config    *configHandler
	resources map[string]resourceHandler
	functions map[string]functionHandler
	// components are keyed by type token.
	components map[string]componentHandler
	// methods are keyed by method token (TYPE/name), as are their docs.
	methods    map[string]Method
	methodDocs map[string]string
	ephemerals map[string]ephemeralHandler
}

// module checks that token belongs to the package and returns its module
// ("index" for a two-part token).
func (s *setup) module(token string) (string, error) {
	if err := resource.ValidateSchemaToken(token); err != nil {
		return "", err
	}
	parts := strings.Split(token, ":")
	if parts[0] != s.info.Name {
		return "", fmt.Errorf("token %q belongs to package %q, not %q; tokens must start with %q", token, parts[0], s.info.Name, s.info.Name+":")
	}
	if len(parts) == 2 {
		return "index", nil
	}
	return parts[1], nil
}

func (s *setup) addResource(token string, h resourceHandler) error {
	if _, dup := s.resources[token]; dup {
		return fmt.Errorf("resource type %s is added twice", token)
	}
	s.resources[token] = h
	return nil
}

func (s *setup) addFunction(token string, h functionHandler) error {
	if _, dup := s.functions[token]; dup {
		return fmt.Errorf("function %s is added twice", token)
	}
	s.functions[token] = h
	return nil
}

// New builds a provider from Go types. It derives the schema from the
// types' field tags and fails if a type cannot be described (an unsupported
// field type, a bad tag or default, two fields with one property name; a
// *DeclarationError names the type and field) or a token is outside the
// package, so that no malformed declaration reaches a request.
// The provider it returns must be configured before use.
func New(info Info, opts ...Option) (Provider, error) {
	if err := resource.ValidateSchemaToken(info.Name + ":index:X"); err != nil {
		return nil, fmt.Errorf("provider name %q must be an identifier (letters, digits, underscores)", info.Name)
	}
	s := &setup{info: info, types: newTypeBuilder(info.Name),
		resources: map[string]resourceHandler{}, functions: map[string]functionHandler{},
		components: map[string]componentHandler{}, methods: map[string]Method{}, methodDocs: map[string]string{},
		ephemerals: map[string]ephemeralHandler{}}
	for _, opt := range opts {
		if err := opt(s); err != nil {
			return nil, fmt.Errorf("provider %s: %w", info.Name, err)
		}
	}
	if s.config == nil {
		if err := WithConfig[struct{}]()(s); err != nil {
			return nil, err
		}
	}
	return newServer(s), nil
}

// server is the Provider that New returns.
type server struct {
	info      Info
	schema    Schema
	config    *configHandler
	resources map[string]resourceHandler
	functions map[string]functionHandler
	// components are keyed by type token.
	components map[string]componentHandler
	methods    map[string]Method
	ephemerals map[string]ephemeralHandler

	mu        sync.RWMutex
	cfg       any  // the configuration value, once configured
	cfgOK     bool // Configure has succeeded
	cancelled context.Context
	cancel    context.CancelFunc
}

var (
	_ Provider    = (*server)(nil)
	_ Constructor = (*server)(nil)
	_ Caller      = (*server)(nil)
)

func newServer(s *setup) *server {
	srv := &server{info: s.info, config: s.config, resources: s.resources, functions: s.functions, components: s.components,
		methods: s.methods, ephemerals: s.ephemerals}
	srv.cancelled, srv.cancel = context.WithCancel(context.Background())
	srv.schema = srv.buildSchema(s.types)
	addMethods(srv.schema, s.methodDocs)
	return srv
}

// addMethods lists each method under its component's schema.
func addMethods(sc Schema, docs map[string]string) {
	for token, doc := range docs {
		typ, name, _ := strings.Cut(token, "/")
		r, ok := sc.Resources[typ]
		if !ok {
			continue
		}
		if r.Methods == nil {
			r.Methods = map[string]MethodSchema{}
		}
		r.Methods[name] = MethodSchema{Token: token, Description: doc}
		sc.Resources[typ] = r
	}
}

func (s *server) buildSchema(tb *typeBuilder) Schema {
	sc := Schema{Name: s.info.Name, Version: s.info.Version, DisplayName: s.info.DisplayName,
		Description: s.info.Description, Homepage: s.info.Homepage, Repository: s.info.Repository,
		License: s.info.License, Publisher: s.info.Publisher, Keywords: s.info.Keywords,
		Config: s.config.codec.properties(), Resources: map[string]ResourceSchema{},
		Functions: map[string]FunctionSchema{}, Types: tb.types}
	for t, h := range s.resources {
		sc.Resources[t] = h.schema()
	}
	for t, h := range s.functions {
		sc.Functions[t] = h.schema()
	}
	for t, h := range s.components {
		sc.Resources[t] = h.schema()
	}
	return sc
}

// GetPluginInfo implements Provider.
func (s *server) GetPluginInfo(context.Context, GetPluginInfoRequest) (GetPluginInfoResponse, error) {
	return GetPluginInfoResponse{Name: s.info.Name, Version: s.info.Version}, nil
}

// GetSchema implements Provider.
func (s *server) GetSchema(context.Context, GetSchemaRequest) (GetSchemaResponse, error) {
	return GetSchemaResponse{Schema: s.schema}, nil
}

// Cancel implements Provider: the contexts of every call in flight, and of
// any call made later, are cancelled.
func (s *server) Cancel(context.Context, CancelRequest) (CancelResponse, error) {
	s.cancel()
	return CancelResponse{}, nil
}

// errCancelled is the cause of a call context cancelled by Cancel.
var errCancelled = fmt.Errorf("the provider was asked to cancel outstanding work: %w", context.Canceled)

// callContext derives the context author code runs with: cancelled by
// Cancel as well as by the caller, carrying the configuration.
func (s *server) callContext(ctx context.Context) (context.Context, func()) {
	s.mu.RLock()
	cfg := s.cfg
	s.mu.RUnlock()
	ctx, release := s.cancellable(ctx)
	return context.WithValue(ctx, configKey{}, cfg), release
}

// cancellable derives a context cancelled by Cancel as well as by ctx,
// and by the function it returns.
func (s *server) cancellable(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(s.cancelled, func() { cancel(errCancelled) })
	return ctx, func() { stop(); cancel(nil) }
}

// configured returns an error unless Configure has succeeded.
func (s *server) configured(method string) error {
	_, err := s.configuration(method)
	return err
}

// configuration returns the configuration value, or an error unless
// Configure has succeeded.
func (s *server) configuration(method string) (any, error) {
	s.mu.RLock()
	cfg, ok := s.cfg, s.cfgOK
	s.mu.RUnlock()
	if ok {
		return cfg, nil
	}
	return nil, fmt.Errorf("provider %s cannot %s before it is configured: %w", s.info.Name, method, ErrNotConfigured)
}

// handler finds the resource type of a URN.
func (s *server) handler(urn resource.URN) (resourceHandler, error) {
	t := urn.Type()
	if h, ok := s.resources[t]; ok {
		return h, nil
	}
	if t == "" {
		return nil, fmt.Errorf("provider %s: %q is not a valid URN", s.info.Name, urn)
	}
	return nil, fmt.Errorf("provider %s has no resource type %q (its types are %s)", s.info.Name, t, strings.Join(s.schema.ResourceTypes(), ", "))
}

// guarded runs provider code for one call: it checks the lifecycle, finds
// the resource type and turns a panic into a PanicError naming the
// provider, method and URN. The handler derives the call's context when
// it runs author code (see call), bounded by timeout if it is positive.
func guarded[T any](s *server, ctx context.Context, method string, urn resource.URN, timeout time.Duration,
	f func(call, resourceHandler) (T, error)) (res T, err error) {
	cfg, err := s.configuration(method)
	if err != nil {
		return res, err
	}
	h, err := s.handler(urn)
	if err != nil {
		return res, err
	}
	defer s.recoverPanic(method, urn, &err)
	return f(call{s: s, parent: ctx, cfg: cfg, timeout: timeout}, h)
}

func (s *server) recoverPanic(method string, urn resource.URN, err *error) {
	if r := recover(); r != nil {
		*err = &PanicError{Provider: s.info.Name, Method: method, URN: urn, Value: r, Stack: debug.Stack()}
	}
}
