package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Ephemeral is an ephemeral resource written as Go types: something opened
// for the length of one run and never recorded (a temporary credential, a
// lease, a tunnel). A is its arguments struct and R its result struct,
// described by field tags like resource inputs. Open is the one method it
// needs; a Renewer keeps it alive and a Closer releases it.
//
// Terraform (tfserve) serves it as an ephemeral resource (terraform 1.10
// or later). Pulumi has no ephemeral resources, so pulumiserve leaves it
// out; a program that needs the value there calls a function.
type Ephemeral[A, R any] interface {
	Open(ctx context.Context, op OpenOp[A]) (OpenResult[R], error)
}

// Renewer renews an open ephemeral resource before RenewAt passes.
type Renewer interface {
	Renew(ctx context.Context, op RenewOp) (RenewResult, error)
}

// Closer releases an open ephemeral resource at the end of the run.
type Closer interface {
	Close(ctx context.Context, op CloseOp) error
}

// OpenOp holds the checked arguments of an ephemeral resource.
type OpenOp[A any] struct {
	Args A
}

// OpenResult is an opened ephemeral resource: its result, the private data
// Renew and Close get back, and when to renew it (zero: never).
type OpenResult[R any] struct {
	Result  R
	Private []byte
	RenewAt time.Time
}

// RenewOp and CloseOp carry the private data Open (or the last Renew)
// returned.
type RenewOp struct{ Private []byte }

// RenewResult replaces the private data (nil keeps it) and says when to
// renew next (zero: never).
type RenewResult struct {
	Private []byte
	RenewAt time.Time
}

// CloseOp: see RenewOp.
type CloseOp struct{ Private []byte }

// EphemeralSchema describes an ephemeral resource: its arguments and
// result.
type EphemeralSchema struct {
	Description string
	Inputs      map[string]Property
	Outputs     map[string]Property
}

// EphemeralProvider is implemented by providers made by New: the
// ephemeral resources added with WithEphemeral, by token. A server for
// an engine with ephemeral resources (tfserve) type-asserts it.
type EphemeralProvider interface {
	EphemeralSchemas() map[string]EphemeralSchema
	CheckEphemeral(ctx context.Context, req CheckEphemeralRequest) (CheckResponse, error)
	OpenEphemeral(ctx context.Context, req OpenEphemeralRequest) (OpenEphemeralResponse, error)
	RenewEphemeral(ctx context.Context, req RenewEphemeralRequest) (RenewEphemeralResponse, error)
	CloseEphemeral(ctx context.Context, req CloseEphemeralRequest) (CloseEphemeralResponse, error)
}

// CheckEphemeralRequest checks an ephemeral resource's arguments, which
// may hold unknowns.
type CheckEphemeralRequest struct {
	Token string
	Args  resource.Object
}

// OpenEphemeralRequest opens an ephemeral resource with known arguments.
type OpenEphemeralRequest struct {
	Token string
	Args  resource.Object
}

// OpenEphemeralResponse carries the result, or failures of the
// arguments.
type OpenEphemeralResponse struct {
	Result   resource.Object
	Failures []CheckFailure
	Private  []byte
	RenewAt  time.Time
}

// RenewEphemeralRequest renews an ephemeral resource.
type RenewEphemeralRequest struct {
	Token   string
	Private []byte
}

// RenewEphemeralResponse: see RenewResult.
type RenewEphemeralResponse struct {
	Private []byte
	RenewAt time.Time
}

// CloseEphemeralRequest closes an ephemeral resource.
type CloseEphemeralRequest struct {
	Token   string
	Private []byte
}

// CloseEphemeralResponse is empty; it exists so fields can be added.
type CloseEphemeralResponse struct{}

// WithEphemeral adds an ephemeral resource with arguments A and result R
// under a token of the provider's package. Its Renewer and Closer are
// detected here.
func WithEphemeral[A, R any](token string, e Ephemeral[A, R], doc string) Option {
	return func(s *setup) error {
		module, err := s.module(token)
		if err != nil {
			return err
		}
		h := &typedEphemeral[A, R]{doc: doc, impl: e}
		if h.args, err = s.types.object(reflect.TypeFor[A](), module); err != nil {
			return fmt.Errorf("ephemeral resource %s: arguments: %w", token, err)
		}
		if h.result, err = s.types.object(reflect.TypeFor[R](), module); err != nil {
			return fmt.Errorf("ephemeral resource %s: result: %w", token, err)
		}
		h.renewer, _ = e.(Renewer)
		h.closer, _ = e.(Closer)
		if _, dup := s.ephemerals[token]; dup {
			return fmt.Errorf("ephemeral resource %s is added twice", token)
		}
		s.ephemerals[token] = h
		return nil
	}
}

// ephemeralHandler is an ephemeral resource as the server sees it.
type ephemeralHandler interface {
	schema() EphemeralSchema
	check(req CheckEphemeralRequest) []CheckFailure
	open(ctx context.Context, req OpenEphemeralRequest) (OpenEphemeralResponse, error)
	renew(ctx context.Context, req RenewEphemeralRequest) (RenewEphemeralResponse, error)
	close(ctx context.Context, req CloseEphemeralRequest) error
}

type typedEphemeral[A, R any] struct {
	doc          string
	impl         Ephemeral[A, R]
	renewer      Renewer
	closer       Closer
	args, result *structCodec
}

func (h *typedEphemeral[A, R]) schema() EphemeralSchema {
	return EphemeralSchema{Description: h.doc, Inputs: h.args.properties(), Outputs: h.result.properties()}
}

func (h *typedEphemeral[A, R]) check(req CheckEphemeralRequest) []CheckFailure {
	var fs []CheckFailure
	h.args.checkObject(req.Args, nil, &fs)
	return fs
}

func (h *typedEphemeral[A, R]) open(ctx context.Context, req OpenEphemeralRequest) (OpenEphemeralResponse, error) {
	fs := h.check(CheckEphemeralRequest(req))
	for _, k := range unknownNames(req.Args) {
		fs = append(fs, CheckFailure{Property: k, Reason: "the value is not known yet; an ephemeral resource opens with known arguments"})
	}
	if len(fs) > 0 {
		return OpenEphemeralResponse{Failures: fs}, nil
	}
	args, err := decode[A](h.args, h.args.objectWithDefaults(req.Args), "arguments")
	if err != nil {
		return OpenEphemeralResponse{}, err
	}
	res, err := h.impl.Open(ctx, OpenOp[A]{Args: args})
	if err != nil {
		return OpenEphemeralResponse{}, err
	}
	out, err := encode(h.result, res.Result, "result")
	return OpenEphemeralResponse{Result: out, Private: res.Private, RenewAt: res.RenewAt}, err
}

func (h *typedEphemeral[A, R]) renew(ctx context.Context, req RenewEphemeralRequest) (RenewEphemeralResponse, error) {
	if h.renewer == nil {
		return RenewEphemeralResponse{Private: req.Private}, nil
	}
	res, err := h.renewer.Renew(ctx, RenewOp{Private: req.Private})
	if res.Private == nil {
		res.Private = req.Private
	}
	return RenewEphemeralResponse(res), err
}

func (h *typedEphemeral[A, R]) close(ctx context.Context, req CloseEphemeralRequest) error {
	if h.closer == nil {
		return nil
	}
	return h.closer.Close(ctx, CloseOp{Private: req.Private})
}

var _ EphemeralProvider = (*server)(nil)

// EphemeralSchemas implements EphemeralProvider.
func (s *server) EphemeralSchemas() map[string]EphemeralSchema {
	out := make(map[string]EphemeralSchema, len(s.ephemerals))
	for t, h := range s.ephemerals {
		out[t] = h.schema()
	}
	return out
}

// ephemeral runs f on the ephemeral resource token with the lifecycle
// check, call context and panic recovery every call gets.
func ephemeral[T any](s *server, ctx context.Context, method, token string, f func(context.Context, ephemeralHandler) (T, error)) (res T, err error) {
	if err := s.configured(method); err != nil {
		return res, err
	}
	h, ok := s.ephemerals[token]
	if !ok {
		return res, fmt.Errorf("provider %s has no ephemeral resource %q (its ephemeral resources are %s)",
			s.info.Name, token, strings.Join(sortedKeys(s.ephemerals), ", "))
	}
	ctx, release := s.callContext(ctx)
	defer release()
	defer s.recoverPanic(method, resource.URN(token), &err)
	if res, err = f(ctx, h); err != nil {
		return res, fmt.Errorf("ephemeral resource %s: %w", token, err)
	}
	return res, nil
}

// CheckEphemeral implements EphemeralProvider.
func (s *server) CheckEphemeral(ctx context.Context, req CheckEphemeralRequest) (CheckResponse, error) {
	return ephemeral(s, ctx, "CheckEphemeral", req.Token, func(_ context.Context, h ephemeralHandler) (CheckResponse, error) {
		return CheckResponse{Inputs: req.Args, Failures: h.check(req)}, nil
	})
}

// OpenEphemeral implements EphemeralProvider.
func (s *server) OpenEphemeral(ctx context.Context, req OpenEphemeralRequest) (OpenEphemeralResponse, error) {
	return ephemeral(s, ctx, "OpenEphemeral", req.Token, func(ctx context.Context, h ephemeralHandler) (OpenEphemeralResponse, error) {
		return h.open(ctx, req)
	})
}

// RenewEphemeral implements EphemeralProvider.
func (s *server) RenewEphemeral(ctx context.Context, req RenewEphemeralRequest) (RenewEphemeralResponse, error) {
	return ephemeral(s, ctx, "RenewEphemeral", req.Token, func(ctx context.Context, h ephemeralHandler) (RenewEphemeralResponse, error) {
		return h.renew(ctx, req)
	})
}

// CloseEphemeral implements EphemeralProvider.
func (s *server) CloseEphemeral(ctx context.Context, req CloseEphemeralRequest) (CloseEphemeralResponse, error) {
	return ephemeral(s, ctx, "CloseEphemeral", req.Token, func(ctx context.Context, h ephemeralHandler) (CloseEphemeralResponse, error) {
		return CloseEphemeralResponse{}, h.close(ctx, req)
	})
}
