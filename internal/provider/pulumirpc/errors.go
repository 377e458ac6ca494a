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
	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// CallError is a call to a plugin that failed. Its message names the
// provider, the call and the resource; a crash carries how the process
// ended and its last stderr lines.
type CallError struct {
	Provider string
	Method   string
	URN      resource.URN
	Code     codes.Code
	Message  string
	// Crashed is set when the plugin process exited during the call.
	Crashed    bool
	ExitStatus string
	Stderr     []string
	// Timeout is the call's timeout when it ran out.
	Timeout time.Duration
	// Closed is set when the provider was closed before the call ended.
	Closed bool

	err error
}

// mutating are the calls that change the world.
var mutating = map[string]bool{"Create": true, "Update": true, "Delete": true}

// OutcomeUnknown reports whether the failed call may still have taken
// effect: it changes the world, and it ended without the plugin's answer
// (the plugin crashed, the connection broke, the call ran out of time or
// was cancelled, the provider was closed, or the answer could not be
// read). An error status a live plugin returned is its answer.
func (e *CallError) OutcomeUnknown() bool {
	if !mutating[e.Method] {
		return false
	}
	switch e.Code {
	case codes.Unavailable, codes.Canceled, codes.DeadlineExceeded:
		return true
	case codes.Internal, codes.ResourceExhausted:
		// gRPC's own failures to read an answer ("grpc: failed to
		// unmarshal the received message", "grpc: received message larger
		// than max") are not the plugin's.
		if strings.HasPrefix(e.Message, "grpc: ") {
			return true
		}
	}
	return e.Crashed || e.Closed
}

func (e *CallError) Error() string {
	subject := e.Method
	if e.URN != "" {
		subject += " of " + string(e.URN)
	}
	switch {
	case e.Closed:
		return fmt.Sprintf("provider %s: %s called after the provider was closed: %s", e.Provider, subject, e.Message)
	case e.Crashed:
		return fmt.Sprintf("provider %s crashed during %s: %s; %s", e.Provider, subject, e.ExitStatus, describeTail(e.Stderr))
	case e.Code == codes.DeadlineExceeded && e.Timeout > 0:
		return fmt.Sprintf("provider %s did not finish %s within its timeout of %s", e.Provider, subject, e.Timeout)
	case e.Code == codes.DeadlineExceeded:
		return fmt.Sprintf("provider %s did not finish %s in time: %s", e.Provider, subject, e.Message)
	case e.Code == codes.Canceled:
		return fmt.Sprintf("provider %s: %s was cancelled", e.Provider, subject)
	case e.Code == codes.Unimplemented:
		return fmt.Sprintf("provider %s does not implement %s: %s", e.Provider, e.Method, e.Message)
	}
	return fmt.Sprintf("provider %s: %s failed: %s", e.Provider, subject, e.Message)
}

// Unwrap returns the gRPC status error.
func (e *CallError) Unwrap() error { return e.err }

// Is makes a call that ended cancelled match context.Canceled, as a
// cancelled call to a provider in process does, so that callers (the
// display's "Cancelled") need not know which side of the wire it was on;
// and a call whose outcome is unknown match provider.ErrOutcomeUnknown.
func (e *CallError) Is(target error) bool {
	switch target {
	case context.Canceled:
		return e.Code == codes.Canceled
	case provider.ErrOutcomeUnknown:
		return e.OutcomeUnknown()
	}
	return false
}

// callError turns a gRPC error into a CallError. A broken connection waits
// briefly for the process to exit, so a crash is reported as one.
func (p *Provider) callError(ctx context.Context, method string, urn resource.URN, timeout time.Duration, err error) error {
	st := status.Convert(err)
	e := &CallError{Provider: p.name, Method: method, URN: urn, Code: st.Code(), Message: st.Message(), err: err}
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
		if p.proc.hasExited(grace) {
			e.Crashed, e.ExitStatus, e.Stderr = true, p.proc.exitStatus(), p.proc.stderrTail()
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

// Diagnostic tells internal/display where the call failed (the resource's
// URN) and leaves the summary to the operation ("Resource failed"): a
// provider's error has no fixed kind.
func (e *CallError) Diagnostic() (summary, where, path, detail string) {
	return "", string(e.URN), "", ""
}
