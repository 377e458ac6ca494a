package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// ErrNotConfigured is returned (wrapped) by resource methods and Invoke when
// Configure has not succeeded yet.
var ErrNotConfigured = errors.New("the provider is not configured")

// InitError reports a resource that was created or updated but did not
// finish initialising: it exists with ID and Outputs, and the caller must
// record it so nothing created is forgotten. Create and Update return it
// (as the error) when an author's method failed after acting.
type InitError struct {
	ID      string
	Outputs resource.Object
	Reasons []string
}

func (e *InitError) Error() string {
	return fmt.Sprintf("resource %s was created but failed to initialise: %s", e.ID, strings.Join(e.Reasons, "; "))
}

// PanicError is a panic in provider code, recovered so that one broken
// resource does not take the engine down. Stack holds the goroutine's stack
// at the panic, for the provider's authors.
type PanicError struct {
	Provider string
	Method   string
	URN      resource.URN // or the function token for Invoke
	Value    any
	Stack    []byte
}

func (e *PanicError) Error() string {
	where := ""
	if e.URN != "" {
		where = " for " + string(e.URN)
	}
	return fmt.Sprintf("provider %s panicked in %s%s: %v (this is a bug in the provider; please report it to its authors)",
		e.Provider, e.Method, where, e.Value)
}

// DeclarationError reports a Go type given to the SDK (a resource's inputs
// or outputs, a function's arguments or result, the configuration) that
// cannot be described as properties: a struct tag that does not parse, an
// unknown tag option, a default that does not fit its field, two fields
// with one property name, an unsupported field type. New returns it
// (wrapped), so a malformed declaration stops the provider from being
// built rather than failing a request.
type DeclarationError struct {
	// Type is the Go type given to the SDK, such as "main.PetArgs".
	Type string
	// Field is the path of Go field names from Type to the bad field, such
	// as "Spec.Color"; "[]" stands for the element of a slice or map, as in
	// "Rules[].Port".
	Field string
	// Owner is the struct type declaring the field when that is not Type
	// (a nested or embedded struct); empty otherwise.
	Owner string
	// Reason says what is wrong and how to fix it.
	Reason string
}

func (e *DeclarationError) Error() string {
	if e.Owner != "" {
		return fmt.Sprintf("type %s, field %s (declared in %s): %s", e.Type, e.Field, e.Owner, e.Reason)
	}
	return fmt.Sprintf("type %s, field %s: %s", e.Type, e.Field, e.Reason)
}
