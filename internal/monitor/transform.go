package monitor

import (
	"context"
	"errors"
	"slices"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Transforms are functions of the program that rewrite a registration's
// properties and options before the engine sees it, as Pulumi's engine
// applies them: a resource's own (the transforms option), then those of
// its parent, its parent's parent and so on, then the stack's
// (registerResourceTransform), each given what the one before returned.
// Invoke transforms (registerInvokeTransform) rewrite a function's
// arguments and options. The monitor calls them through the Callbacks
// service the program's SDK serves (callbacks.go).

// errEnded answers a callback that failed after the operation had: the
// program is being ended, which breaks its Callbacks service, so the
// failure is a consequence, not worth reporting again.
var errEnded = errors.New("the operation has already failed")

// transforms holds the transforms the program has registered.
type transforms struct {
	stack   []*pulumirpc.Callback
	invoke  []*pulumirpc.Callback
	own     map[string][]*pulumirpc.Callback // by resource URN
	parents map[string]string                // resource URN → parent URN, as the program sent them
}

// addStack registers a stack transform, which applies to every resource
// registered after it.
func (s *Server) addStackTransform(cb *pulumirpc.Callback) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.xf.stack = append(s.xf.stack, cb)
}

func (s *Server) addInvokeTransform(cb *pulumirpc.Callback) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.xf.invoke = append(s.xf.invoke, cb)
}

// resourceTransforms records a registration's own transforms and parent,
// for its children, and returns the transforms that apply to it, in order.
// A remote component is registered twice, by the program and then by its
// provider (whose Construct is served by this monitor: see
// langhost.Program.ServeMonitor): the second, which names no transforms,
// gets the program's, as with Pulumi's engine.
//
// Until a resource names transforms, none applies and no parent is
// recorded: a resource's ancestors are registered before it, so those
// registered then have no transforms for its descendants to inherit.
func (s *Server) resourceTransforms(urn resource.URN, req *pulumirpc.RegisterResourceRequest) []*pulumirpc.Callback {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.xf.own) == 0 && len(req.GetTransforms()) == 0 {
		return slices.Clip(s.xf.stack)
	}
	if s.xf.own == nil {
		s.xf.own, s.xf.parents = map[string][]*pulumirpc.Callback{}, map[string]string{}
	}
	s.xf.parents[string(urn)] = req.GetParent()
	own := req.GetTransforms()
	if len(own) > 0 {
		s.xf.own[string(urn)] = own
	} else {
		own = s.xf.own[string(urn)]
	}
	out := append([]*pulumirpc.Callback(nil), own...)
	seen := map[string]bool{string(urn): true}
	for p := req.GetParent(); p != "" && !seen[p]; p = s.xf.parents[p] {
		seen[p] = true
		out = append(out, s.xf.own[p]...)
	}
	return append(out, s.xf.stack...)
}

// transformResource applies the transforms that apply to a registration
// and returns the registration they leave (req itself if there are none).
// A transform that fails is a RequestError naming the resource.
func (s *Server) transformResource(ctx context.Context, urn resource.URN, req *pulumirpc.RegisterResourceRequest) (*pulumirpc.RegisterResourceRequest, error) {
	cbs := s.resourceTransforms(urn, req)
	if len(cbs) == 0 {
		return req, nil
	}
	props, opts := req.GetObject(), transformOptions(req)
	for _, cb := range cbs {
		var resp pulumirpc.TransformResponse
		treq := &pulumirpc.TransformRequest{Type: req.GetType(), Name: req.GetName(), Custom: req.GetCustom(), Parent: req.GetParent(), Properties: props, Options: opts}
		if err := s.cb.call(ctx, cb, treq, &resp); err != nil {
			if s.hasFailed() {
				return nil, errEnded
			}
			return nil, &RequestError{"resource " + string(urn), "a transform failed: " + strings.TrimPrefix(err.Error(), "transform failed: ") + ". Fix the transform (the transforms option, or registerResourceTransform) or the resource's arguments"}
		}
		// A transform that leaves the resource alone (the Go SDK's returns
		// nil) answers with neither properties nor options: both stay.
		if resp.GetProperties() != nil {
			props = resp.GetProperties()
		}
		if resp.GetOptions() != nil {
			opts = resp.GetOptions()
		}
	}
	out := proto.Clone(req).(*pulumirpc.RegisterResourceRequest)
	out.Object = props
	applyOptions(out, opts)
	return out, nil
}

// transformOptions are a registration's options as a transform sees them;
// alias URNs become aliases.
func transformOptions(req *pulumirpc.RegisterResourceRequest) *pulumirpc.TransformResourceOptions {
	o := &pulumirpc.TransformResourceOptions{
		DependsOn: req.GetDependencies(), Protect: req.Protect, IgnoreChanges: req.GetIgnoreChanges(),
		ReplaceOnChanges: req.GetReplaceOnChanges(), Version: req.GetVersion(), Provider: req.GetProvider(),
		CustomTimeouts: req.GetCustomTimeouts(), PluginDownloadUrl: req.GetPluginDownloadURL(),
		RetainOnDelete: req.RetainOnDelete, DeletedWith: req.GetDeletedWith(),
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(), Providers: req.GetProviders(),
		PluginChecksums: req.GetPluginChecksums(), Hooks: req.GetHooks(), Import: req.GetImportId(),
		HideDiff: req.GetHideDiffs(), ReplaceWith: req.GetReplaceWith(), ReplacementTrigger: req.GetReplacementTrigger(),
	}
	if req.GetDeleteBeforeReplace() || req.GetDeleteBeforeReplaceDefined() {
		dbr := req.GetDeleteBeforeReplace()
		o.DeleteBeforeReplace = &dbr
	}
	for _, u := range req.GetAliasURNs() {
		o.Aliases = append(o.Aliases, &pulumirpc.Alias{Alias: &pulumirpc.Alias_Urn{Urn: u}})
	}
	o.Aliases = append(o.Aliases, req.GetAliases()...)
	return o
}

// applyOptions sets a registration's options to those a transform
// returned: they replace the registration's, as in Pulumi.
func applyOptions(req *pulumirpc.RegisterResourceRequest, o *pulumirpc.TransformResourceOptions) {
	req.Dependencies, req.Protect, req.IgnoreChanges = o.GetDependsOn(), o.Protect, o.GetIgnoreChanges()
	req.ReplaceOnChanges, req.Version, req.Provider = o.GetReplaceOnChanges(), o.GetVersion(), o.GetProvider()
	req.CustomTimeouts, req.PluginDownloadURL = o.GetCustomTimeouts(), o.GetPluginDownloadUrl()
	req.RetainOnDelete, req.DeletedWith = o.RetainOnDelete, o.GetDeletedWith()
	req.AdditionalSecretOutputs, req.Providers = o.GetAdditionalSecretOutputs(), o.GetProviders()
	req.PluginChecksums, req.Hooks, req.ImportId = o.GetPluginChecksums(), o.GetHooks(), o.GetImport()
	req.HideDiffs, req.ReplaceWith, req.ReplacementTrigger = o.GetHideDiff(), o.GetReplaceWith(), o.GetReplacementTrigger()
	req.DeleteBeforeReplace, req.DeleteBeforeReplaceDefined = o.GetDeleteBeforeReplace(), o.DeleteBeforeReplace != nil
	req.AliasURNs, req.Aliases = nil, o.GetAliases()
	req.Transforms = nil
}

// transformInvoke applies the invoke transforms to a function call and
// returns the call they leave (req itself if there are none).
func (s *Server) transformInvoke(ctx context.Context, req *pulumirpc.ResourceInvokeRequest) (*pulumirpc.ResourceInvokeRequest, error) {
	s.mu.Lock()
	cbs := append([]*pulumirpc.Callback(nil), s.xf.invoke...)
	s.mu.Unlock()
	if len(cbs) == 0 {
		return req, nil
	}
	args := req.GetArgs()
	opts := &pulumirpc.TransformInvokeOptions{Provider: req.GetProvider(), PluginDownloadUrl: req.GetPluginDownloadURL(), Version: req.GetVersion(), PluginChecksums: req.GetPluginChecksums()}
	for _, cb := range cbs {
		var resp pulumirpc.TransformInvokeResponse
		if err := s.cb.call(ctx, cb, &pulumirpc.TransformInvokeRequest{Token: req.GetTok(), Args: args, Options: opts}, &resp); err != nil {
			if s.hasFailed() {
				return nil, errEnded
			}
			return nil, &RequestError{"function " + req.GetTok(), "an invoke transform failed: " + strings.TrimPrefix(err.Error(), "transform failed: ") + ". Fix the transform (registerInvokeTransform) or the function's arguments"}
		}
		if resp.GetArgs() != nil {
			args = resp.GetArgs()
		}
		if resp.GetOptions() != nil {
			opts = resp.GetOptions()
		}
	}
	out := proto.Clone(req).(*pulumirpc.ResourceInvokeRequest)
	out.Args, out.Provider, out.PluginDownloadURL = args, opts.GetProvider(), opts.GetPluginDownloadUrl()
	out.Version, out.PluginChecksums = opts.GetVersion(), opts.GetPluginChecksums()
	return out, nil
}

// transformFailed is the status a failed transform answers with; the
// failure is the operation's error unless it had already failed.
func (s *Server) transformFailed(err error) error {
	if errors.Is(err, errEnded) {
		return status.Error(codes.Aborted, err.Error())
	}
	return status.Error(codes.InvalidArgument, s.refuse(err).Error())
}
