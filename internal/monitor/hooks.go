package monitor

import (
	"context"
	"errors"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Resource hooks are functions of the program the engine runs around a
// custom resource's create and update (engine.Hooks). The program
// registers each by name (RegisterResourceHook) and binds names to a
// resource (the hooks option); the monitor gives the engine functions
// that call them through the program's Callbacks service. Delete hooks,
// error hooks and hooks on components are refused: see hookBinding.

// addHook registers a resource hook by name.
func (s *Server) addHook(req *pulumirpc.RegisterResourceHookRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hooks == nil {
		s.hooks = map[string]*pulumirpc.RegisterResourceHookRequest{}
	}
	s.hooks[req.GetName()] = req
}

// hookBinding translates a registration's hooks option.
func (s *Server) hookBinding(req *pulumirpc.RegisterResourceRequest, what string) (engine.Hooks, error) {
	b := req.GetHooks()
	if b == nil || !hasHooks(b) {
		return engine.Hooks{}, nil
	}
	switch {
	case len(b.GetBeforeDelete())+len(b.GetAfterDelete()) > 0:
		return engine.Hooks{}, &RequestError{what, "it has delete hooks (beforeDelete, afterDelete), which plinth does not support; remove them (create and update hooks are supported)"}
	case len(b.GetOnError()) > 0:
		return engine.Hooks{}, &RequestError{what, "it has error hooks (onError), which plinth does not support; remove them"}
	case !req.GetCustom():
		return engine.Hooks{}, &RequestError{what, "it is a component resource with hooks, which plinth does not support; put the hooks on the component's custom resources"}
	}
	var hs engine.Hooks
	var err error
	for _, f := range []struct {
		names []string
		dst   *[]engine.Hook
	}{{b.GetBeforeCreate(), &hs.BeforeCreate}, {b.GetAfterCreate(), &hs.AfterCreate}, {b.GetBeforeUpdate(), &hs.BeforeUpdate}, {b.GetAfterUpdate(), &hs.AfterUpdate}} {
		if *f.dst, err = s.boundHooks(req, f.names, what); err != nil {
			return engine.Hooks{}, err
		}
	}
	return hs, nil
}

// boundHooks finds the registered hooks a binding names.
func (s *Server) boundHooks(req *pulumirpc.RegisterResourceRequest, names []string, what string) ([]engine.Hook, error) {
	var out []engine.Hook
	for _, name := range names {
		s.mu.Lock()
		reg := s.hooks[name]
		s.mu.Unlock()
		if reg == nil {
			return nil, &RequestError{what, fmt.Sprintf("its hooks option names the hook %q, which the program has not registered", name)}
		}
		out = append(out, engine.Hook{Name: name, OnPreview: reg.GetOnDryRun(), IgnoreErrors: reg.GetIgnoreErrors(),
			Run: s.hookRunner(reg.GetCallback(), req.GetType(), req.GetName())})
	}
	return out, nil
}

// hookRunner calls a hook through the program's Callbacks service.
func (s *Server) hookRunner(cb *pulumirpc.Callback, typ, name string) func(context.Context, engine.HookCall) error {
	return func(ctx context.Context, c engine.HookCall) error {
		hreq := &pulumirpc.ResourceHookRequest{Urn: string(c.URN), Id: c.ID, Name: name, Type: typ}
		for _, f := range []struct {
			o   resource.Object
			dst **structpb.Struct
		}{{c.NewInputs, &hreq.NewInputs}, {c.OldInputs, &hreq.OldInputs}, {c.NewOutputs, &hreq.NewOutputs}, {c.OldOutputs, &hreq.OldOutputs}} {
			st, err := pulumiwire.EncodeObject(f.o, pulumiwire.Options{Secrets: true, Resources: true})
			if err != nil {
				return fmt.Errorf("encoding what the hook is told: %w", err)
			}
			*f.dst = st
		}
		var resp pulumirpc.ResourceHookResponse
		if err := s.cb.call(ctx, cb, hreq, &resp); err != nil {
			return err
		}
		if resp.GetError() != "" {
			return errors.New(resp.GetError())
		}
		return nil
	}
}
