package provider

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Component is a component resource a provider builds itself: Construct
// registers the component's children through c (each is parented to the
// component) and returns the component's outputs. It runs for every
// preview and update of a program that declares the component; children it
// no longer registers are deleted by the engine, as with any program.
type Component interface {
	Construct(ctx context.Context, c ComponentContext, inputs resource.Object) (outputs resource.Object, err error)
}

// ComponentFunc adapts a function to Component.
type ComponentFunc func(ctx context.Context, c ComponentContext, inputs resource.Object) (resource.Object, error)

// Construct implements Component.
func (f ComponentFunc) Construct(ctx context.Context, c ComponentContext, inputs resource.Object) (resource.Object, error) {
	return f(ctx, c, inputs)
}

// ComponentContext is how a component registers its children with the
// engine. A server (pulumiserve) implements it over the engine's resource
// monitor.
type ComponentContext interface {
	// URN is the component's own URN.
	URN() resource.URN
	// DryRun reports whether this is a preview: children's outputs may be
	// unknown.
	DryRun() bool
	// Register registers a custom resource of type typ named name, parented
	// to the component, and waits for the engine to create, update or keep
	// it. It fails if the engine could not (the child's provider refused).
	Register(ctx context.Context, typ, name string, inputs resource.Object, opts ...RegisterOption) (Registered, error)
}

// Registered is a child as the engine recorded it.
type Registered struct {
	URN     resource.URN
	ID      string
	Outputs resource.Object
}

// RegisterOptions are the resource options of a child registration.
type RegisterOptions struct {
	DependsOn           []resource.URN
	Protect             bool
	DeleteBeforeReplace bool
	ReplaceOnChanges    []string
	IgnoreChanges       []string
	RetainOnDelete      bool
}

// RegisterOption sets one of a child's RegisterOptions.
type RegisterOption func(*RegisterOptions)

// DependsOn makes the child wait for the given resources.
func DependsOn(urns ...resource.URN) RegisterOption {
	return func(o *RegisterOptions) { o.DependsOn = append(o.DependsOn, urns...) }
}

// ReplaceOnChanges makes a change to any of the property paths replace the
// child.
func ReplaceOnChanges(paths ...string) RegisterOption {
	return func(o *RegisterOptions) { o.ReplaceOnChanges = append(o.ReplaceOnChanges, paths...) }
}

// IgnoreChanges makes the engine ignore changes to the property paths.
func IgnoreChanges(paths ...string) RegisterOption {
	return func(o *RegisterOptions) { o.IgnoreChanges = append(o.IgnoreChanges, paths...) }
}

// Protect makes the engine refuse to delete the child.
func Protect() RegisterOption { return func(o *RegisterOptions) { o.Protect = true } }

// DeleteBeforeReplace replaces the child by deleting it first.
func DeleteBeforeReplace() RegisterOption {
	return func(o *RegisterOptions) { o.DeleteBeforeReplace = true }
}

// ApplyRegisterOptions collects opts; servers use it.
func ApplyRegisterOptions(opts []RegisterOption) RegisterOptions {
	var o RegisterOptions
	for _, f := range opts {
		f(&o)
	}
	return o
}

// WithComponent adds a component resource type under token. Its schema
// entry is marked IsComponent, so engines send it to Construct. I and O are
// structs describing the component's inputs and outputs for the schema
// (with the same tags as WithResource's); Construct receives and returns
// them as resource.Object. Use struct{} to declare none.
func WithComponent[I, O any](token string, c Component, doc string) Option {
	return func(s *setup) error {
		module, err := s.module(token)
		if err != nil {
			return err
		}
		if c == nil {
			return fmt.Errorf("component %s: the Component is nil", token)
		}
		if _, dup := s.resources[token]; dup {
			return fmt.Errorf("resource type %s is added twice", token)
		}
		if _, dup := s.components[token]; dup {
			return fmt.Errorf("component type %s is added twice", token)
		}
		h := componentHandler{c: c, doc: doc}
		if h.inputs, err = s.types.object(reflect.TypeFor[I](), module); err != nil {
			return fmt.Errorf("component %s: inputs: %w", token, err)
		}
		if h.outputs, err = s.types.object(reflect.TypeFor[O](), module); err != nil {
			return fmt.Errorf("component %s: outputs: %w", token, err)
		}
		s.components[token] = h
		return nil
	}
}

type componentHandler struct {
	c               Component
	doc             string
	inputs, outputs *structCodec
}

// schema describes the component: its inputs and outputs, IsComponent.
func (h componentHandler) schema() ResourceSchema {
	return ResourceSchema{Description: h.doc, Inputs: h.inputs.properties(), Outputs: h.outputs.properties(), IsComponent: true}
}

// Constructor is implemented by providers that build component resources
// (the provider New returns does). Servers call it once they have
// registered the component and hold a ComponentContext for it.
type Constructor interface {
	Construct(ctx context.Context, req ConstructRequest) (ConstructResponse, error)
}

// ConstructRequest asks for the component of Type named Name to be built
// with Inputs, registering its children through Context.
type ConstructRequest struct {
	Type    string
	Name    string
	Inputs  resource.Object
	Context ComponentContext
}

// ConstructResponse carries the component's outputs.
type ConstructResponse struct {
	Outputs resource.Object
}

// Construct implements Constructor: it runs the component registered
// under req.Type, turning a panic into a PanicError.
func (s *server) Construct(ctx context.Context, req ConstructRequest) (resp ConstructResponse, err error) {
	h, ok := s.components[req.Type]
	if !ok {
		var names []string
		for t := range s.components {
			names = append(names, t)
		}
		sort.Strings(names)
		return resp, fmt.Errorf("provider %s has no component type %q (its components are %s)", s.info.Name, req.Type, strings.Join(names, ", "))
	}
	ctx, release := s.callContext(ctx)
	defer release()
	defer s.recoverPanic("Construct", req.Context.URN(), &err)
	outs, err := h.c.Construct(ctx, req.Context, req.Inputs)
	if err != nil {
		return resp, fmt.Errorf("component %s %s: %w", req.Type, req.Name, err)
	}
	return ConstructResponse{Outputs: outs}, nil
}

// Method is a method of a component (Pulumi's Call): self is the
// component (a resource reference, or its URN), args the method's
// arguments; it returns the method's result.
type Method func(ctx context.Context, self resource.Value, args resource.Object) (resource.Object, error)

// WithMethod adds a method of a component under token, TYPE/name (for
// example web:index:Site/url), where TYPE is a component added with
// WithComponent.
func WithMethod(token string, m Method, doc string) Option {
	return func(s *setup) error {
		typ, name, ok := strings.Cut(token, "/")
		if !ok || name == "" {
			return fmt.Errorf("method %q: a method's token is TYPE/name, such as %s/url", token, typ)
		}
		if _, err := s.module(typ); err != nil {
			return fmt.Errorf("method %s: %w", token, err)
		}
		if m == nil {
			return fmt.Errorf("method %s: the Method is nil", token)
		}
		if _, dup := s.methods[token]; dup {
			return fmt.Errorf("method %s is added twice", token)
		}
		s.methods[token], s.methodDocs[token] = m, doc
		return nil
	}
}

// Caller is implemented by providers whose components have methods (the
// provider New returns does).
type Caller interface {
	Call(ctx context.Context, req CallRequest) (CallResponse, error)
}

// CallRequest calls the method Token on the component Self.
type CallRequest struct {
	Token string
	Self  resource.Value
	Args  resource.Object
}

// CallResponse carries a method's result.
type CallResponse struct {
	Return resource.Object
}

// Call implements Caller, turning a panic into a PanicError.
func (s *server) Call(ctx context.Context, req CallRequest) (resp CallResponse, err error) {
	m, ok := s.methods[req.Token]
	if !ok {
		names := sortedKeys(s.methods)
		return resp, fmt.Errorf("provider %s has no method %q (its methods are %s)", s.info.Name, req.Token, strings.Join(names, ", "))
	}
	ctx, release := s.callContext(ctx)
	defer release()
	defer s.recoverPanic("Call "+req.Token, "", &err)
	ret, err := m(ctx, req.Self, req.Args)
	if err != nil {
		return resp, fmt.Errorf("method %s: %w", req.Token, err)
	}
	return CallResponse{Return: ret}, nil
}
