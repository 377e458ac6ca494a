package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Error hooks are functions of the program run when a resource's create,
// update or delete fails, as Pulumi's onError hooks are: told the failed
// operation and its errors so far (newest first), each says whether to
// try again; if any does, the provider is called again, up to
// maxErrorHookRetries failures in all. A hook that fails ends the
// retrying with its error. A failure whose outcome is unknown (a crash, a
// timeout: the call may have changed the world) is not retried, nor a
// partial create (it made something), and previews run none. The registration gives the hooks for its create and
// update; the state records their names for the delete, found through
// the ErrorHookFinder the program gives Finisher.Finish.

// maxErrorHookRetries is how many failures an operation may have before
// plinth stops retrying, as Pulumi's engine stops.
const maxErrorHookRetries = 100

// ErrorHook is one of the program's error hooks.
type ErrorHook struct {
	Name string
	Run  func(ctx context.Context, call ErrorHookCall) (retry bool, err error)
}

// ErrorHookCall is what an error hook is told.
type ErrorHookCall struct {
	URN                              resource.URN
	ID                               string
	NewInputs, OldInputs, OldOutputs resource.Object
	// Operation is create, update or delete; Errors the failures so far,
	// newest first.
	Operation string
	Errors    []string
}

// ErrorHookFinder finds one of the program's error hooks by name.
type ErrorHookFinder func(name string) (ErrorHook, bool)

// errorHookNames are the names of hooks, as the state records them.
func errorHookNames(hooks []ErrorHook) []string {
	var out []string
	for _, h := range hooks {
		out = append(out, h.Name)
	}
	return out
}

// withErrorHooks runs op, and again while it fails and an error hook asks
// to retry.
func (x *executor) withErrorHooks(hooks func() ([]ErrorHook, error), call ErrorHookCall, op func() error) error {
	var failures []string
	for {
		err := op()
		var ie *provider.InitError
		if err == nil || x.preview || provider.IsOutcomeUnknown(err) || errors.As(err, &ie) && ie.ID != "" {
			return err // a partial create made something: not to be made twice
		}
		hs, herr := hooks()
		if herr != nil {
			return fmt.Errorf("%w; its error hooks could not run: %v", err, herr)
		}
		if len(hs) == 0 {
			return err
		}
		failures = append([]string{err.Error()}, failures...)
		if len(failures) >= maxErrorHookRetries {
			return fmt.Errorf("%w (its error hooks asked to retry the %s %d times; plinth stops there, as Pulumi does)", err, call.Operation, len(failures)-1)
		}
		call.Errors = failures
		retry, herr := x.runErrorHooks(hs, call)
		if herr != nil {
			return fmt.Errorf("%w; then %v", err, herr)
		}
		if !retry {
			return err
		}
		x.warn("%s: retrying the %s, as an error hook asked (failure %d of at most %d): %v", call.URN, call.Operation, len(failures), maxErrorHookRetries, err)
	}
}

// runErrorHooks runs every hook and says whether any asks to retry; the
// first that fails ends it.
func (x *executor) runErrorHooks(hooks []ErrorHook, call ErrorHookCall) (bool, error) {
	retry := false
	for _, h := range hooks {
		var r bool
		err := guard(func() (err error) { r, err = h.Run(x.ctx, call); return err })
		if err != nil {
			return false, fmt.Errorf("the error hook %q failed: %w", h.Name, err)
		}
		retry = retry || r
	}
	return retry, nil
}

// givenErrorHooks are a registration's error hooks.
func givenErrorHooks(hooks []ErrorHook) func() ([]ErrorHook, error) {
	return func() ([]ErrorHook, error) { return hooks, nil }
}

// recordedErrorHooks finds the error hooks the state names for a delete.
func (x *executor) recordedErrorHooks(urn resource.URN, names []string) func() ([]ErrorHook, error) {
	return func() ([]ErrorHook, error) {
		if len(names) == 0 {
			return nil, nil
		}
		x.mu.Lock()
		find := x.findErrorHook
		x.mu.Unlock()
		var out []ErrorHook
		var missing []string
		for _, name := range names {
			h, ok := ErrorHook{}, find != nil
			if ok {
				h, ok = find(name)
			}
			if !ok {
				missing = append(missing, fmt.Sprintf("%q", name))
				continue
			}
			out = append(out, h)
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("%s names the error hooks %s, which the program has not registered (or is not running: a destroy does not run it)", urn, strings.Join(missing, ", "))
		}
		return out, nil
	}
}
