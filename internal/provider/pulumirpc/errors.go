package pulumirpc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// CallError is a call to a plugin that failed, the adapters' shared
// error: its message names the provider, the call and the resource, and a
// crash carries how the process ended and its last stderr lines.
type CallError = grpcplugin.CallError

// callError turns a gRPC error into a CallError. A broken connection waits
// briefly for the process to exit, so a crash is reported as one.
func (p *Provider) callError(ctx context.Context, method string, urn resource.URN, timeout time.Duration, err error) error {
	e := grpcplugin.NewCallError(p.name, method, urn, err)
	if p.closed.Load() {
		e.Closed = true
		return e
	}
	// The plugin may report the deadline (it was sent along) a moment before
	// the context here expires: either way the call ran out of time.
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || (e.Code == codes.DeadlineExceeded && timeout > 0) {
		e.Code, e.Timeout = codes.DeadlineExceeded, timeout
	}
	if p.proc != nil {
		grace := time.Duration(0)
		if e.Code == codes.Unavailable { // a broken connection: the plugin may be dying
			grace = 5 * time.Second
		}
		if p.proc.HasExited(grace) {
			e.Crashed, e.Exit = true, p.proc.ExitStatus()+"; "+describeTail(p.proc.Tail.Get())
		}
	}
	return e
}

// initError returns the partial result a provider attached to a failed
// Create, Update or Read, if it did: the resource exists but did not
// initialise.
func initError(err error, id string) (*provider.InitError, error) {
	for _, d := range status.Convert(err).Details() {
		f, ok := d.(*pb.ErrorResourceInitFailed)
		if !ok {
			continue
		}
		outs, derr := pulumiwire.DecodeObject(f.GetProperties(), pulumiwire.Full())
		if derr != nil {
			return nil, derr
		}
		if f.GetId() != "" {
			id = f.GetId()
		}
		reasons := f.GetReasons()
		if len(reasons) == 0 {
			reasons = []string{status.Convert(err).Message()}
		}
		return &provider.InitError{ID: id, Outputs: outs, Reasons: reasons}, nil
	}
	return nil, nil
}

// configureError explains a failed Configure: missing required keys are
// listed one by one with their descriptions.
func (p *Provider) configureError(ctx context.Context, err error) error {
	var lines []string
	for _, d := range status.Convert(err).Details() {
		if mk, ok := d.(*pb.ConfigureErrorMissingKeys); ok {
			for _, k := range mk.GetMissingKeys() {
				lines = append(lines, fmt.Sprintf("missing required configuration key %q: %s", k.GetName(), k.GetDescription()))
			}
		}
	}
	if len(lines) == 0 {
		return p.callError(ctx, "Configure", "", 0, err)
	}
	return &ConfigError{Provider: p.name, Missing: lines, err: err}
}

// ConfigError is a Configure that failed for missing configuration.
type ConfigError struct {
	Provider string
	Missing  []string
	err      error
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("provider %s is not configured: %s\nSet each key in the stack's configuration as %s:<key>, or on the provider resource.",
		e.Provider, strings.Join(e.Missing, "; "), e.Provider)
}

// Unwrap returns the gRPC status error.
func (e *ConfigError) Unwrap() error { return e.err }

// codecError wraps a value that could not cross the wire.
func (p *Provider) codecError(method string, urn resource.URN, what string, err error) error {
	subject := method
	if urn != "" {
		subject += " of " + string(urn)
	}
	return fmt.Errorf("provider %s: %s: %s: %w", p.name, subject, what, err)
}
