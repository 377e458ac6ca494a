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
// resource's create, update and delete (engine.Hooks). The program
// registers each by name (RegisterResourceHook) and binds names to a
// resource (the hooks option); the monitor gives the engine functions
// that call them through the program's Callbacks service. Delete hooks
// are recorded by name and found when the resource is deleted, through
// the HookFinder the monitor gives the engine when the program signals
// that it is done and waits (SignalAndWaitForShutdown), so its Callbacks
// service still answers. Error hooks (onError) are registered and bound
// the same way, and run when the resource's create, update or delete
// fails. A component's after-create and after-update hooks run when it
// registers its outputs (the engine keeps them until then).

// addHook registers a resource hook by name.
func (s *Server) addHook(req *pulumirpc.RegisterResourceHookRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hooks == nil {
		s.hooks = map[string]*pulumirpc.RegisterResourceHookRequest{}
	}
	s.hooks[req.GetName()] = req
}

// addErrorHook registers an error hook by name.
func (s *Server) addErrorHook(req *pulumirpc.RegisterErrorHookRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.errorHooks == nil {
		s.errorHooks = map[string]*pulumirpc.RegisterErrorHookRequest{}
	}
	s.errorHooks[req.GetName()] = req
}

// findErrorHook is the engine.ErrorHookFinder of the error hooks the
// program registered.
func (s *Server) findErrorHook(name string) (engine.ErrorHook, bool) {
	s.mu.Lock()
	reg := s.errorHooks[name]
	s.mu.Unlock()
	if reg == nil {
		return engine.ErrorHook{}, false
	}
	return engine.ErrorHook{Name: name, Run: s.errorHookRunner(reg.GetCallback())}, true
}

// errorHookRunner calls an error hook through the program's Callbacks
// service: its answer says whether to retry.
func (s *Server) errorHookRunner(cb *pulumirpc.Callback) func(context.Context, engine.ErrorHookCall) (bool, error) {
	return func(ctx context.Context, c engine.ErrorHookCall) (bool, error) {
		hreq := &pulumirpc.ErrorHookRequest{Urn: string(c.URN), Id: c.ID, Name: c.URN.Name(), Type: c.URN.Type(),
			FailedOperation: c.Operation, Errors: c.Errors}
		for _, f := range []struct {
			o   resource.Object
			dst **structpb.Struct
		}{{c.NewInputs, &hreq.NewInputs}, {c.OldInputs, &hreq.OldInputs}, {c.OldOutputs, &hreq.OldOutputs}} {
			st, err := pulumiwire.EncodeObject(f.o, pulumiwire.Options{Secrets: true, Resources: true})
			if err != nil {
				return false, fmt.Errorf("encoding what the error hook is told: %w", err)
			}
			*f.dst = st
		}
		var resp pulumirpc.ErrorHookResponse
		if err := s.cb.call(ctx, cb, hreq, &resp); err != nil {
			return false, err
		}
		if resp.GetError() != "" {
			return false, errors.New(resp.GetError())
		}
		return resp.GetRetry(), nil
	}
}

// findHook is the engine.HookFinder of the hooks the program registered:
// a hook found by name is told the type and name of the resource it runs
// for from its URN.
func (s *Server) findHook(name string) (engine.Hook, bool) {
	s.mu.Lock()
	reg := s.hooks[name]
	s.mu.Unlock()
	if reg == nil {
		return engine.Hook{}, false
	}
	return engine.Hook{Name: name, OnPreview: reg.GetOnDryRun(), IgnoreErrors: reg.GetIgnoreErrors(),
		Run: s.hookRunner(reg.GetCallback(), "", "")}, true
}

// finish tells the engine that the program has registered everything,
// and returns once the engine has deleted what it did not register
// (running their delete hooks through findHook); at once if the engine
// deletes only after the program.
func (s *Server) finish() {
	if f, ok := s.mon.(engine.Finisher); ok {
		f.Finish(s.findHook, s.findErrorHook)
	}
}

// hookBinding translates a registration's hooks option.
func (s *Server) hookBinding(req *pulumirpc.RegisterResourceRequest, what string) (engine.Hooks, error) {
	b := req.GetHooks()
	if b == nil || !hasHooks(b) {
		return engine.Hooks{}, nil
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
	for _, names := range [][]string{b.GetBeforeDelete(), b.GetAfterDelete()} {
		if _, err := s.boundHooks(req, names, what); err != nil {
			return engine.Hooks{}, err
		}
	}
	hs.BeforeDelete, hs.AfterDelete = b.GetBeforeDelete(), b.GetAfterDelete()
	for _, name := range b.GetOnError() {
		h, ok := s.findErrorHook(name)
		if !ok {
			return engine.Hooks{}, &RequestError{what, fmt.Sprintf("its hooks option names the error hook %q, which the program has not registered", name)}
		}
		hs.OnError = append(hs.OnError, h)
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
		if typ == "" {
			typ, name = c.URN.Type(), c.URN.Name()
		}
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
