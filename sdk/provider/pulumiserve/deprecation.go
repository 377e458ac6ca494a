package pulumiserve

import (
	"context"
	"fmt"
	"sort"
	"strconv"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// warnDeprecated logs a warning on urn, through the engine, for each
// deprecated property that inputs set, at any depth: the Pulumi engine
// and language hosts do not warn of them themselves (a YAML program
// would never hear of it), while terraform warns on the attribute.
// Failing to reach the engine loses the warning, never the Check.
func (s *Server) warnDeprecated(ctx context.Context, urn string, props map[string]provider.Property, inputs resource.Object) {
	msgs := deprecations(inputs, props, "")
	if len(msgs) == 0 {
		return
	}
	engine := s.engine()
	if engine == nil {
		return
	}
	for _, m := range msgs {
		_, _ = engine.Log(ctx, &pb.LogRequest{Severity: pb.LogSeverity_WARNING, Urn: urn, Message: m})
	}
}

// engine returns a client of the engine's Engine service, connecting on
// first use, or nil when the engine's address is not known.
func (s *Server) engine() pb.EngineClient {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.engineConn == nil && s.engineAddr != "" {
		conn, err := grpc.NewClient(s.engineAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return nil
		}
		s.engineConn = conn
	}
	if s.engineConn == nil {
		return nil
	}
	return pb.NewEngineClient(s.engineConn)
}

// setEngineAddr records the engine's address, closing a connection to
// another; s.mu is held.
func (s *Server) setEngineAddr(addr string) {
	if addr != s.engineAddr && s.engineConn != nil {
		_ = s.engineConn.Close()
		s.engineConn = nil
	}
	s.engineAddr = addr
}

// deprecations says, for each deprecated property set in o (props its
// schema), "PATH is deprecated: WHY", the path as in a check failure
// (listener.port, rules[0].name, tags["a"]); in path order.
func deprecations(o resource.Object, props map[string]provider.Property, prefix string) []string {
	var out []string
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := o[n].SecretElement()
		if v.IsNull() || v.IsUnknown() {
			continue
		}
		p, path := props[n], join(prefix, n)
		if p.Deprecated != "" {
			out = append(out, fmt.Sprintf("%s is deprecated: %s", path, p.Deprecated))
		}
		out = append(out, nestedDeprecations(v, p.Type, path)...)
	}
	return out
}

func nestedDeprecations(v resource.Value, t provider.Type, path string) []string {
	switch {
	case t.Kind == provider.TypeObject && v.Kind() == resource.ObjectKind:
		return deprecations(v.Object(), t.Properties, path)
	case t.Kind == provider.TypeArray && t.Elem != nil && v.Kind() == resource.ArrayKind:
		var out []string
		for i, e := range v.Array() {
			out = append(out, nestedDeprecations(e.SecretElement(), *t.Elem, path+"["+strconv.Itoa(i)+"]")...)
		}
		return out
	case t.Kind == provider.TypeMap && t.Elem != nil && v.Kind() == resource.ObjectKind:
		o := v.Object()
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var out []string
		for _, k := range keys {
			out = append(out, nestedDeprecations(o[k].SecretElement(), *t.Elem, path+"["+strconv.Quote(k)+"]")...)
		}
		return out
	}
	return nil
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
