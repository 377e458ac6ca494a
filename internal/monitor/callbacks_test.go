package monitor_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/monitor"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// fakeCallbacks serves the Callbacks service a program's SDK serves: each
// token names a function of the request's bytes.
type fakeCallbacks struct {
	pulumirpc.UnimplementedCallbacksServer
	addr  string
	funcs map[string]func([]byte) (proto.Message, error)
	mu    sync.Mutex
	calls []string // tokens, in order
}

func (f *fakeCallbacks) Invoke(_ context.Context, req *pulumirpc.CallbackInvokeRequest) (*pulumirpc.CallbackInvokeResponse, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req.GetToken())
	f.mu.Unlock()
	fn := f.funcs[req.GetToken()]
	if fn == nil {
		return nil, status.Error(codes.InvalidArgument, "callback not found: "+req.GetToken())
	}
	resp, err := fn(req.GetRequest())
	if err != nil {
		return nil, status.Error(codes.Unknown, err.Error())
	}
	body, err := proto.Marshal(resp)
	return &pulumirpc.CallbackInvokeResponse{Response: body}, err
}

func (f *fakeCallbacks) cb(token string) *pulumirpc.Callback {
	return &pulumirpc.Callback{Target: f.addr, Token: token}
}

func serveCallbacks(t *testing.T, funcs map[string]func([]byte) (proto.Message, error)) *fakeCallbacks {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeCallbacks{addr: lis.Addr().String(), funcs: funcs}
	g := grpc.NewServer()
	pulumirpc.RegisterCallbacksServer(g, f)
	go func() { _ = g.Serve(lis) }()
	t.Cleanup(g.Stop)
	return f
}

// trail is a resource transform that appends its name to the list input
// "trail"; with protect it also sets the protect option.
func trail(name string, protect bool) func([]byte) (proto.Message, error) {
	return func(b []byte) (proto.Message, error) {
		var req pulumirpc.TransformRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			return nil, err
		}
		props := req.GetProperties().AsMap()
		list, _ := props["trail"].([]any)
		props["trail"] = append(list, name)
		s, err := structpb.NewStruct(props)
		if err != nil {
			return nil, err
		}
		opts := req.GetOptions()
		if protect {
			opts.Protect = proto.Bool(true)
		}
		return &pulumirpc.TransformResponse{Properties: s, Options: opts}, nil
	}
}

// TestTransforms: the monitor applies a resource's own transforms, then
// its ancestors', then the stack's, each seeing what the one before
// returned, and registers the result: properties and options (protect;
// alias URNs survive as aliases). An invoke transform rewrites a
// function's arguments. Before, plinth refused transforms.
func TestTransforms(t *testing.T) {
	ctx := context.Background()
	fake, srv, c, _, _ := client(t)
	cbs := serveCallbacks(t, map[string]func([]byte) (proto.Message, error){
		"comp": trail("comp", false), "child": trail("child", true), "stack": trail("stack", false),
		"args": func(b []byte) (proto.Message, error) {
			var req pulumirpc.TransformInvokeRequest
			if err := proto.Unmarshal(b, &req); err != nil {
				return nil, err
			}
			args := req.GetArgs().AsMap()
			args["name"] = "from-transform"
			s, err := structpb.NewStruct(args)
			return &pulumirpc.TransformInvokeResponse{Args: s, Options: req.GetOptions()}, err
		},
	})
	registerRoot(t, c)
	if _, err := c.RegisterStackTransform(ctx, cbs.cb("stack")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RegisterStackInvokeTransform(ctx, cbs.cb("args")); err != nil {
		t.Fatal(err)
	}
	comp, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "my:index:Group", Name: "g", Parent: root,
		Object: &structpb.Struct{}, Transforms: []*pulumirpc.Callback{cbs.cb("comp")}})
	if err != nil {
		t.Fatal(err)
	}
	old := "urn:pulumi:dev::proj::plinth:random:Pet::old"
	if _, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Custom: true, Parent: comp.GetUrn(),
		Object: &structpb.Struct{}, AliasURNs: []string{old}, Transforms: []*pulumirpc.Callback{cbs.cb("child")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{Tok: "plinth:index:getEnv", Args: &structpb.Struct{}}); err != nil {
		t.Fatal(err)
	}
	trailOf := func(r engine.Registration) []string {
		var out []string
		for _, v := range r.Inputs["trail"].Array() {
			out = append(out, v.Str())
		}
		return out
	}
	got := map[string][]string{}
	for _, r := range fake.regs {
		got[r.Name] = trailOf(r)
	}
	want := map[string][]string{"g": {"comp", "stack"}, "p": {"child", "comp", "stack"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transforms applied, by resource (-want +got):\n%s", diff)
	}
	p := fake.regs[len(fake.regs)-1]
	if !p.Protect || !cmp.Equal(p.Aliases, []engine.Alias{{URN: resource.URN(old)}}) {
		t.Errorf("p: protect %v, aliases %v; want protect (set by its transform) and its alias URN kept", p.Protect, p.Aliases)
	}
	if got := fake.invokes[0].Args["name"].Str(); got != "from-transform" {
		t.Errorf("getEnv's name = %q, want the invoke transform's", got)
	}
	if srv.Err() != nil {
		t.Errorf("the operation failed: %v", srv.Err())
	}
}

// TestTransformsThatChangeNothing: a transform that answers with neither
// properties nor options (a Go program's transform returning nil, for a
// resource it does not touch) leaves the resource's properties and
// options as they were, as Pulumi's engine does; an invoke transform
// answering with no arguments leaves the function's. Before, plinth
// registered the resource with no properties at all (a plinth:fs:File
// under a component with such a transform lost its required path).
func TestTransformsThatChangeNothing(t *testing.T) {
	ctx := context.Background()
	fake, srv, c, _, _ := client(t)
	cbs := serveCallbacks(t, map[string]func([]byte) (proto.Message, error){
		"none":   func([]byte) (proto.Message, error) { return &pulumirpc.TransformResponse{}, nil },
		"noargs": func([]byte) (proto.Message, error) { return &pulumirpc.TransformInvokeResponse{}, nil },
		"stack":  trail("stack", false),
	})
	registerRoot(t, c)
	if _, err := c.RegisterStackInvokeTransform(ctx, cbs.cb("noargs")); err != nil {
		t.Fatal(err)
	}
	comp, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "my:index:Group", Name: "g", Parent: root,
		Object: &structpb.Struct{}, Transforms: []*pulumirpc.Callback{cbs.cb("none")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RegisterStackTransform(ctx, cbs.cb("stack")); err != nil {
		t.Fatal(err)
	}
	in, err := structpb.NewStruct(map[string]any{"path": "out/a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:fs:File", Name: "f", Custom: true, Parent: comp.GetUrn(),
		Object: in, Protect: proto.Bool(true), Transforms: []*pulumirpc.Callback{cbs.cb("none")}}); err != nil {
		t.Fatal(err)
	}
	args, err := structpb.NewStruct(map[string]any{"name": "HOME"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{Tok: "plinth:index:getEnv", Args: args}); err != nil {
		t.Fatal(err)
	}
	f := fake.regs[len(fake.regs)-1]
	got := map[string]any{"path": f.Inputs["path"].Str(), "protect": f.Protect, "getEnv name": fake.invokes[0].Args["name"].Str()}
	var trailGot []string
	for _, v := range f.Inputs["trail"].Array() {
		trailGot = append(trailGot, v.Str())
	}
	got["trail"] = trailGot
	want := map[string]any{"path": "out/a.txt", "protect": true, "getEnv name": "HOME", "trail": []string{"stack"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("f and getEnv after transforms that change nothing (-want +got):\n%s", diff)
	}
	if srv.Err() != nil {
		t.Errorf("the operation failed: %v", srv.Err())
	}
}

// TestTransformThatFails: a transform that throws fails the registration
// with an error naming the resource and giving the program's message;
// nothing reaches the engine and the operation is marked failed.
func TestTransformThatFails(t *testing.T) {
	ctx := context.Background()
	fake, srv, c, _, _ := client(t)
	cbs := serveCallbacks(t, map[string]func([]byte) (proto.Message, error){
		"boom": func([]byte) (proto.Message, error) { return nil, errors.New("transform failed: Error: boom") },
	})
	registerRoot(t, c)
	_, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Custom: true, Parent: root,
		Object: &structpb.Struct{}, Transforms: []*pulumirpc.Callback{cbs.cb("boom")}})
	want := "resource urn:pulumi:dev::proj::plinth:random:Pet::p: a transform failed: Error: boom."
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %v, want InvalidArgument with %q", err, want)
	}
	if len(fake.regs) != 0 {
		t.Errorf("the engine was given %v", fake.regs)
	}
	if srv.Err() == nil || !strings.Contains(srv.Err().Error(), "boom") {
		t.Errorf("the operation's error = %v, want the transform's", srv.Err())
	}
	select {
	case <-srv.Failed():
	default:
		t.Error("the operation is not marked failed")
	}
}

// TestHooks: a resource's hooks option reaches the engine as functions
// that call the program's registered hooks through its Callbacks service,
// with the resource's URN, ID, name, type and inputs; a hook's error
// answer is the function's error; a hook the program has not registered
// is refused. Before, plinth refused every resource hook.
func TestHooks(t *testing.T) {
	ctx := context.Background()
	fake, _, c, _, _ := client(t)
	var got []*pulumirpc.ResourceHookRequest
	cbs := serveCallbacks(t, map[string]func([]byte) (proto.Message, error){
		"h": func(b []byte) (proto.Message, error) {
			var req pulumirpc.ResourceHookRequest
			if err := proto.Unmarshal(b, &req); err != nil {
				return nil, err
			}
			got = append(got, &req)
			if req.GetId() == "refused" {
				return &pulumirpc.ResourceHookResponse{Error: "not this one"}, nil
			}
			return &pulumirpc.ResourceHookResponse{}, nil
		},
	})
	registerRoot(t, c)
	if _, err := c.RegisterResourceHook(ctx, &pulumirpc.RegisterResourceHookRequest{Name: "announce", Callback: cbs.cb("h"), OnDryRun: true}); err != nil {
		t.Fatal(err)
	}
	bind := &pulumirpc.RegisterResourceRequest_ResourceHooksBinding{AfterCreate: []string{"announce"}}
	if _, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Custom: true,
		Object: &structpb.Struct{}, Hooks: bind}); err != nil {
		t.Fatal(err)
	}
	hooks := fake.regs[0].Hooks.AfterCreate
	if len(hooks) != 1 || hooks[0].Name != "announce" || !hooks[0].OnPreview {
		t.Fatalf("after-create hooks %+v, want announce, run on previews", hooks)
	}
	urn := resource.URN("urn:pulumi:dev::proj::plinth:random:Pet::p")
	call := engine.HookCall{URN: urn, ID: "id-p", NewInputs: resource.Object{"length": resource.NewNumber(2)}}
	if err := hooks[0].Run(ctx, call); err != nil {
		t.Fatal(err)
	}
	want := &pulumirpc.ResourceHookRequest{Urn: string(urn), Id: "id-p", Name: "p", Type: "plinth:random:Pet",
		NewInputs: &structpb.Struct{Fields: map[string]*structpb.Value{"length": structpb.NewNumberValue(2)}}}
	if len(got) != 1 || !proto.Equal(want, got[0]) {
		t.Errorf("the hook was told %v, want %v", got, want)
	}
	call.ID = "refused"
	if err := hooks[0].Run(ctx, call); err == nil || err.Error() != "not this one" {
		t.Errorf("error = %v, want the hook's answer", err)
	}

	bind = &pulumirpc.RegisterResourceRequest_ResourceHooksBinding{BeforeUpdate: []string{"nope"}}
	_, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "q", Custom: true,
		Object: &structpb.Struct{}, Hooks: bind})
	if err == nil || !strings.Contains(err.Error(), `the hook "nope", which the program has not registered`) {
		t.Errorf("error = %v, want the unregistered hook named", err)
	}
}

// finishingMonitor is a fakeMonitor that is an engine.Finisher: Finish
// runs the given deletes' hooks through the finder it is given.
type finishingMonitor struct {
	*fakeMonitor
	finish func(engine.HookFinder)
}

func (f finishingMonitor) Finish(find engine.HookFinder, _ engine.ErrorHookFinder) { f.finish(find) }

// TestDeleteHooks: a resource's delete hooks reach the engine as names,
// checked against the hooks the program registered; when the program
// signals it is done and waits (SignalAndWaitForShutdown), the engine is
// asked to finish with a finder of the program's hooks, whose functions
// call them through the Callbacks service with the resource's type and
// name taken from its URN, and the call returns only once the engine has
// finished. Before, delete hooks were refused and
// SignalAndWaitForShutdown returned at once.
func TestDeleteHooks(t *testing.T) {
	ctx := context.Background()
	var told []*pulumirpc.ResourceHookRequest
	cbs := serveCallbacks(t, map[string]func([]byte) (proto.Message, error){
		"h": func(b []byte) (proto.Message, error) {
			var req pulumirpc.ResourceHookRequest
			if err := proto.Unmarshal(b, &req); err != nil {
				return nil, err
			}
			told = append(told, &req)
			return &pulumirpc.ResourceHookResponse{}, nil
		},
	})
	urn := resource.URN("urn:pulumi:dev::proj::plinth:random:Pet::gone")
	var finished []string
	fake := finishingMonitor{fakeMonitor: &fakeMonitor{outputs: map[resource.URN]resource.Object{}}}
	fake.finish = func(find engine.HookFinder) {
		if _, ok := find("unknown"); ok {
			finished = append(finished, "found a hook never registered")
		}
		h, ok := find("cleanup")
		if !ok {
			finished = append(finished, "cleanup not found")
			return
		}
		if err := h.Run(ctx, engine.HookCall{URN: urn, ID: "id-gone", OldInputs: resource.Object{"length": resource.NewNumber(2)}}); err != nil {
			finished = append(finished, err.Error())
		}
		finished = append(finished, "finished")
	}
	_, c, _, _ := serve(t, fake, monitor.Config{Stack: "dev", Project: "proj"})
	registerRoot(t, c)
	if _, err := c.RegisterResourceHook(ctx, &pulumirpc.RegisterResourceHookRequest{Name: "cleanup", Callback: cbs.cb("h")}); err != nil {
		t.Fatal(err)
	}
	bind := &pulumirpc.RegisterResourceRequest_ResourceHooksBinding{BeforeDelete: []string{"cleanup"}, AfterDelete: []string{"cleanup"}}
	if _, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Custom: true,
		Object: &structpb.Struct{}, Hooks: bind}); err != nil {
		t.Fatal(err)
	}
	got := fake.regs[0].Hooks
	if diff := cmp.Diff([][]string{{"cleanup"}, {"cleanup"}}, [][]string{got.BeforeDelete, got.AfterDelete}); diff != "" {
		t.Errorf("delete hooks (-want +got):\n%s", diff)
	}
	bind = &pulumirpc.RegisterResourceRequest_ResourceHooksBinding{AfterDelete: []string{"nope"}}
	_, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "q", Custom: true,
		Object: &structpb.Struct{}, Hooks: bind})
	if err == nil || !strings.Contains(err.Error(), `the hook "nope", which the program has not registered`) {
		t.Errorf("error = %v, want the unregistered hook named", err)
	}

	if _, err := c.SignalAndWaitForShutdown(ctx, &emptypb.Empty{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"finished"}, finished); diff != "" {
		t.Errorf("the engine's finish (-want +got):\n%s", diff)
	}
	want := &pulumirpc.ResourceHookRequest{Urn: string(urn), Id: "id-gone", Name: "gone", Type: "plinth:random:Pet",
		OldInputs: &structpb.Struct{Fields: map[string]*structpb.Value{"length": structpb.NewNumberValue(2)}}}
	if len(told) != 1 || !proto.Equal(want, told[0]) {
		t.Errorf("the hook was told %v, want %v", told, want)
	}
}

// TestTransformsOfARemoteComponent: a remote component, registered by the
// program with its transforms and then again by its provider (through the
// same monitor, naming none), gets the program's transforms both times,
// and its children the component's and the stack's, as with Pulumi's
// engine. Before, the provider's registration got only the stack's.
func TestTransformsOfARemoteComponent(t *testing.T) {
	ctx := context.Background()
	fake, _, c, _, _ := client(t)
	cbs := serveCallbacks(t, map[string]func([]byte) (proto.Message, error){"comp": trail("comp", false), "stack": trail("stack", false)})
	registerRoot(t, c)
	if _, err := c.RegisterStackTransform(ctx, cbs.cb("stack")); err != nil {
		t.Fatal(err)
	}
	comp, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "comp:index:Site", Name: "web", Parent: root, Remote: true,
		Object: &structpb.Struct{}, Transforms: []*pulumirpc.Callback{cbs.cb("comp")}})
	if err != nil {
		t.Fatal(err)
	}
	// What the component's provider registers, in its Construct.
	if _, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "comp:index:Site", Name: "web", Parent: root,
		Object: &structpb.Struct{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "comp:index:Item", Name: "a", Custom: true, Parent: comp.GetUrn(),
		Object: &structpb.Struct{}}); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, r := range fake.regs {
		var trail []string
		for _, v := range r.Inputs["trail"].Array() {
			trail = append(trail, v.Str())
		}
		got = append(got, append([]string{r.Name}, trail...))
	}
	want := [][]string{{"web", "comp", "stack"}, {"web", "comp", "stack"}, {"a", "comp", "stack"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transforms applied, by registration (-want +got):\n%s", diff)
	}
}

// TestTransformsUnderResourcesWithout: resources registered before any
// transform exists (which the monitor records nothing for) pass on no
// transform, but a descendant still gets those of a later ancestor that
// names some, and of the stack once it has one.
func TestTransformsUnderResourcesWithout(t *testing.T) {
	ctx := context.Background()
	fake, _, c, _, _ := client(t)
	cbs := serveCallbacks(t, map[string]func([]byte) (proto.Message, error){"mid": trail("mid", false), "stack": trail("stack", false)})
	registerRoot(t, c)
	register := func(name, parent string, transforms ...*pulumirpc.Callback) string {
		t.Helper()
		r, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "my:index:Group", Name: name, Parent: parent,
			Object: &structpb.Struct{}, Transforms: transforms})
		if err != nil {
			t.Fatal(err)
		}
		return r.GetUrn()
	}
	top := register("top", root)
	plain := register("plain", top)
	mid := register("mid", plain, cbs.cb("mid"))
	register("deep", register("leaf", mid))
	register("beside", plain)
	if _, err := c.RegisterStackTransform(ctx, cbs.cb("stack")); err != nil {
		t.Fatal(err)
	}
	register("late", register("late-parent", top))
	register("late-leaf", mid)
	got := map[string][]string{}
	for _, r := range fake.regs {
		got[r.Name] = nil
		for _, v := range r.Inputs["trail"].Array() {
			got[r.Name] = append(got[r.Name], v.Str())
		}
	}
	want := map[string][]string{"top": nil, "plain": nil, "mid": {"mid"}, "leaf": {"mid"}, "deep": {"mid"}, "beside": nil,
		"late-parent": {"stack"}, "late": {"stack"}, "late-leaf": {"mid", "stack"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transforms applied, by resource (-want +got):\n%s", diff)
	}
}

// TestErrorHooks: an error hook the program registers, named in a
// resource's onError, reaches the engine as a function that calls it
// through the Callbacks service with the failed operation and its errors,
// and answers whether to retry; an error hook the program has not
// registered is refused. Before, error hooks were refused.
func TestErrorHooks(t *testing.T) {
	ctx := context.Background()
	fake, _, c, _, _ := client(t)
	var told []*pulumirpc.ErrorHookRequest
	cbs := serveCallbacks(t, map[string]func([]byte) (proto.Message, error){
		"e": func(b []byte) (proto.Message, error) {
			var req pulumirpc.ErrorHookRequest
			if err := proto.Unmarshal(b, &req); err != nil {
				return nil, err
			}
			told = append(told, &req)
			return &pulumirpc.ErrorHookResponse{Retry: len(req.GetErrors()) < 2}, nil
		},
	})
	registerRoot(t, c)
	if _, err := c.RegisterErrorHook(ctx, &pulumirpc.RegisterErrorHookRequest{Name: "again", Callback: cbs.cb("e")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "p", Custom: true,
		Object: &structpb.Struct{}, Hooks: &pulumirpc.RegisterResourceRequest_ResourceHooksBinding{OnError: []string{"again"}}}); err != nil {
		t.Fatal(err)
	}
	hooks := fake.regs[0].Hooks.OnError
	if len(hooks) != 1 || hooks[0].Name != "again" {
		t.Fatalf("error hooks %+v, want again", hooks)
	}
	urn := resource.URN("urn:pulumi:dev::proj::plinth:random:Pet::p")
	var got []bool
	for _, errs := range [][]string{{"busy"}, {"busy", "busy"}} {
		retry, err := hooks[0].Run(ctx, engine.ErrorHookCall{URN: urn, Operation: "create", Errors: errs})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, retry)
	}
	if diff := cmp.Diff([]bool{true, false}, got); diff != "" {
		t.Errorf("retry answers (-want +got):\n%s", diff)
	}
	want := &pulumirpc.ErrorHookRequest{Urn: string(urn), Name: "p", Type: "plinth:random:Pet", FailedOperation: "create", Errors: []string{"busy"}}
	if len(told) != 2 || !proto.Equal(want, told[0]) {
		t.Errorf("the hook was told %v, want first %v", told, want)
	}
	_, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "plinth:random:Pet", Name: "q", Custom: true,
		Object: &structpb.Struct{}, Hooks: &pulumirpc.RegisterResourceRequest_ResourceHooksBinding{OnError: []string{"nope"}}})
	if err == nil || !strings.Contains(err.Error(), `the error hook "nope", which the program has not registered`) {
		t.Errorf("error = %v, want the unregistered error hook named", err)
	}
}

// TestComponentHooksReachTheEngine: a component's create and update hooks
// are bound like a custom resource's (the engine runs the after hooks
// when it registers its outputs). Before, they were refused.
func TestComponentHooksReachTheEngine(t *testing.T) {
	ctx := context.Background()
	fake, _, c, _, _ := client(t)
	registerRoot(t, c)
	if _, err := c.RegisterResourceHook(ctx, &pulumirpc.RegisterResourceHookRequest{Name: "h", Callback: &pulumirpc.Callback{Target: "127.0.0.1:1", Token: "t"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "my:index:Group", Name: "g", Object: &structpb.Struct{},
		Hooks: &pulumirpc.RegisterResourceRequest_ResourceHooksBinding{BeforeCreate: []string{"h"}, AfterUpdate: []string{"h"}}}); err != nil {
		t.Fatal(err)
	}
	if hs := fake.regs[0].Hooks; len(hs.BeforeCreate) != 1 || len(hs.AfterUpdate) != 1 {
		t.Errorf("the component's hooks %+v, want a before-create and an after-update hook", hs)
	}
}
