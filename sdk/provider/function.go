package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// functionHandler is a provider function as the server sees it.
type functionHandler interface {
	schema() FunctionSchema
	invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error)
}

// WithFunction adds a function (an invoke) under a token of the provider's
// package ("pkg:module:name"): fn takes its arguments as the struct A and
// returns its result as the struct R, both described by field tags like
// resource inputs. doc describes it in the schema.
//
// Arguments are checked like resource inputs; unknown arguments are refused
// (a function runs only on known values). If any argument is secret, every
// result property is secret.
func WithFunction[A, R any](token string, fn func(ctx context.Context, args A) (R, error), doc string) Option {
	return func(s *setup) error {
		module, err := s.module(token)
		if err != nil {
			return err
		}
		f := &typedFunction[A, R]{doc: doc, fn: fn}
		if f.args, err = s.types.object(reflect.TypeFor[A](), module); err != nil {
			return fmt.Errorf("function %s: arguments: %w", token, err)
		}
		if err := oneVariadic(f.args); err != nil {
			return fmt.Errorf("function %s: arguments: %w", token, err)
		}
		if f.result, err = s.types.object(reflect.TypeFor[R](), module); err != nil {
			return fmt.Errorf("function %s: result: %w", token, err)
		}
		return s.addFunction(token, f)
	}
}

type typedFunction[A, R any] struct {
	doc          string
	args, result *structCodec
	fn           func(context.Context, A) (R, error)
}

func (f *typedFunction[A, R]) schema() FunctionSchema {
	return FunctionSchema{Description: f.doc, Inputs: f.args.properties(), Outputs: f.result.properties()}
}

func (f *typedFunction[A, R]) invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error) {
	var fs []CheckFailure
	f.args.checkObject(req.Args, nil, &fs)
	for _, k := range unknownNames(req.Args) {
		fs = append(fs, CheckFailure{Property: k, Reason: "the value is not known yet; a function needs known arguments"})
	}
	if len(fs) > 0 {
		return InvokeResponse{Failures: fs}, nil
	}
	args, err := decode[A](f.args, f.args.objectWithDefaults(req.Args), "arguments")
	if err != nil {
		return InvokeResponse{}, err
	}
	r, err := f.fn(ctx, args)
	if err != nil {
		return InvokeResponse{}, err
	}
	out, err := encode(f.result, r, "result")
	if err != nil {
		return InvokeResponse{}, err
	}
	if resource.NewObject(req.Args).ContainsSecrets() {
		for k, v := range out {
			out[k] = resource.MakeSecret(v)
		}
	}
	return InvokeResponse{Return: out}, nil
}

// Invoke implements Provider.
func (s *server) Invoke(ctx context.Context, req InvokeRequest) (resp InvokeResponse, err error) {
	if err := s.configured("Invoke"); err != nil {
		return resp, err
	}
	h, ok := s.functions[req.Token]
	if !ok {
		return resp, fmt.Errorf("provider %s has no function %q (its functions are %s)", s.info.Name, req.Token, strings.Join(s.schema.FunctionTokens(), ", "))
	}
	ctx, release := s.callContext(ctx)
	defer release()
	defer s.recoverPanic("Invoke", resource.URN(req.Token), &err)
	resp, err = h.invoke(ctx, req)
	if err != nil {
		return resp, fmt.Errorf("function %s: %w", req.Token, err)
	}
	return resp, nil
}

// oneVariadic reports a function's arguments with more than one variadic
// field: Terraform passes a variadic parameter as the trailing arguments,
// so there can be only one.
func oneVariadic(c *structCodec) error {
	var first *field
	for _, f := range c.fields {
		if !f.tag.variadic {
			continue
		}
		if first != nil {
			return &DeclarationError{Type: c.t.String(), Field: f.goName, Reason: fmt.Sprintf(
				"%s is variadic too; a function has at most one variadic argument, so make it a plain slice", first.goName)}
		}
		first = f
	}
	return nil
}
