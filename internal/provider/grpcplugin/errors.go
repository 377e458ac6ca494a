package grpcplugin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/provider"
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
	Crashed bool
	// Exit says how it ended, with its last stderr lines, when it crashed.
	Exit string
	// Timeout is the call's timeout when it ran out.
	Timeout time.Duration
	// Closed is set when the provider was closed before the call ended.
	Closed bool

	err error
}

// NewCallError is the CallError for the gRPC error err.
func NewCallError(provider, method string, urn resource.URN, err error) *CallError {
	st := status.Convert(err)
	return &CallError{Provider: provider, Method: method, URN: urn, Code: st.Code(), Message: st.Message(), err: err}
}

// OutcomeUnknown reports whether the failed call may still have taken
// effect: it changes the world (Create, Update, Delete), and it ended
// without the plugin's answer (the plugin crashed, the connection broke,
// the call ran out of time or was cancelled, the provider was closed, or
// the answer could not be read). An error status a live plugin returned
// is its answer.
func (e *CallError) OutcomeUnknown() bool {
	if e.Method != "Create" && e.Method != "Update" && e.Method != "Delete" {
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
		return fmt.Sprintf("provider %s crashed during %s: %s", e.Provider, subject, e.Exit)
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

// Diagnostic tells internal/display where the call failed (the resource's
// URN) and leaves the summary to the operation ("Resource failed"): a
// provider's error has no fixed kind.
func (e *CallError) Diagnostic() (summary, where, path, detail string) {
	return "", string(e.URN), "", ""
}
