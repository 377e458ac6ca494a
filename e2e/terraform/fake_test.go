package terraform

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/grpc"

	"github.com/plinth-iac/plinth/internal/provider/tfplugin"
	"github.com/plinth-iac/plinth/sdk/tfplugin5"
)

// The fake providers, served by this test binary when it runs under the
// name terraform-provider-<mode>_v1.0.0. Each has one resource type,
// <mode>_thing, with a configurable value and computed id and out.
const (
	modeCrash  = "crash"  // apply kills the process with a panic
	modeWobbly = "wobbly" // apply returns an out the plan did not promise
	// modeCounting works, and appends a line to plans.log in its working
	// directory (the project's) for every PlanResourceChange.
	modeCounting = "counting"
)

var fakeModes = []string{modeCrash, modeWobbly, modeCounting}

// plansLog is the file the counting fake logs its plans to.
const plansLog = "plans.log"

const fakeVersion = "1.0.0"

// fakeMode reports which fake provider the executable named arg0 is.
func fakeMode(arg0 string) (string, bool) {
	for _, m := range fakeModes {
		if filepath.Base(arg0) == fakeBinary(m) {
			return m, true
		}
	}
	return "", false
}

func fakeBinary(mode string) string { return "terraform-provider-" + mode + "_v" + fakeVersion }

// linkFakes links this test binary into dir under each fake's name.
func linkFakes(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the test binary: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, m := range fakeModes {
		if err := os.Symlink(exe, filepath.Join(dir, fakeBinary(m))); err != nil {
			return fmt.Errorf("linking fake provider %s: %w", m, err)
		}
	}
	return nil
}

// serveFake serves the fake provider over tfplugin5 until plinth stops it.
func serveFake(mode string) {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  tfplugin.Handshake,
		VersionedPlugins: map[int]plugin.PluginSet{5: {"provider": fakePlugin{f: &fake{mode: mode}}}},
		GRPCServer:       plugin.DefaultGRPCServer,
	})
}

// fakePlugin is go-plugin's server side of a fake.
type fakePlugin struct {
	plugin.NetRPCUnsupportedPlugin
	f *fake
}

func (p fakePlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	tfplugin5.RegisterProviderServer(s, p.f)
	return nil
}

func (fakePlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, errors.New("the fake provider is a server only")
}

// thingType is the state type of <mode>_thing.
var thingType = cty.Object(map[string]cty.Type{"id": cty.String, "value": cty.String, "out": cty.String})

// fake is a tfplugin5 provider whose mode decides how it misbehaves.
type fake struct {
	tfplugin5.UnimplementedProviderServer
	mode string
}

func (f *fake) GetSchema(context.Context, *tfplugin5.GetProviderSchema_Request) (*tfplugin5.GetProviderSchema_Response, error) {
	str, err := ctyjson.MarshalType(cty.String)
	if err != nil {
		return nil, err
	}
	attr := func(name string, optional, computed bool) *tfplugin5.Schema_Attribute {
		return &tfplugin5.Schema_Attribute{Name: name, Type: str, Optional: optional, Computed: computed}
	}
	thing := &tfplugin5.Schema{Block: &tfplugin5.Schema_Block{Attributes: []*tfplugin5.Schema_Attribute{
		attr("id", false, true), attr("value", true, false), attr("out", false, true),
	}}}
	return &tfplugin5.GetProviderSchema_Response{
		Provider:        &tfplugin5.Schema{Block: &tfplugin5.Schema_Block{}},
		ResourceSchemas: map[string]*tfplugin5.Schema{f.mode + "_thing": thing},
	}, nil
}

func (f *fake) PrepareProviderConfig(_ context.Context, req *tfplugin5.PrepareProviderConfig_Request) (*tfplugin5.PrepareProviderConfig_Response, error) {
	return &tfplugin5.PrepareProviderConfig_Response{PreparedConfig: req.Config}, nil
}

func (f *fake) Configure(context.Context, *tfplugin5.Configure_Request) (*tfplugin5.Configure_Response, error) {
	return &tfplugin5.Configure_Response{}, nil
}

func (f *fake) ValidateResourceTypeConfig(context.Context, *tfplugin5.ValidateResourceTypeConfig_Request) (*tfplugin5.ValidateResourceTypeConfig_Response, error) {
	return &tfplugin5.ValidateResourceTypeConfig_Response{}, nil
}

func (f *fake) UpgradeResourceState(_ context.Context, req *tfplugin5.UpgradeResourceState_Request) (*tfplugin5.UpgradeResourceState_Response, error) {
	v, err := ctyjson.Unmarshal(req.RawState.Json, thingType)
	if err != nil {
		return nil, err
	}
	b, err := ctymsgpack.Marshal(v, thingType)
	return &tfplugin5.UpgradeResourceState_Response{UpgradedState: &tfplugin5.DynamicValue{Msgpack: b}}, err
}

func (f *fake) ReadResource(_ context.Context, req *tfplugin5.ReadResource_Request) (*tfplugin5.ReadResource_Response, error) {
	return &tfplugin5.ReadResource_Response{NewState: req.CurrentState, Private: req.Private}, nil
}

// PlanResourceChange promises out = "planned" and an unknown id for a new
// object.
func (f *fake) PlanResourceChange(_ context.Context, req *tfplugin5.PlanResourceChange_Request) (*tfplugin5.PlanResourceChange_Response, error) {
	if f.mode == modeCounting {
		if err := logPlan(req); err != nil {
			return nil, err
		}
	}
	proposed, err := ctymsgpack.Unmarshal(req.ProposedNewState.Msgpack, thingType)
	if err != nil || proposed.IsNull() {
		return &tfplugin5.PlanResourceChange_Response{PlannedState: req.ProposedNewState}, err
	}
	attrs := proposed.AsValueMap()
	if attrs["id"].IsNull() {
		attrs["id"] = cty.UnknownVal(cty.String)
	}
	attrs["out"] = cty.StringVal("planned")
	b, err := ctymsgpack.Marshal(cty.ObjectVal(attrs), thingType)
	return &tfplugin5.PlanResourceChange_Response{PlannedState: &tfplugin5.DynamicValue{Msgpack: b}}, err
}

// ApplyResourceChange misbehaves by mode.
func (f *fake) ApplyResourceChange(_ context.Context, req *tfplugin5.ApplyResourceChange_Request) (*tfplugin5.ApplyResourceChange_Response, error) {
	planned, err := ctymsgpack.Unmarshal(req.PlannedState.Msgpack, thingType)
	if err != nil || planned.IsNull() {
		return &tfplugin5.ApplyResourceChange_Response{NewState: req.PlannedState}, err
	}
	attrs := planned.AsValueMap()
	if !attrs["id"].IsKnown() {
		attrs["id"] = cty.StringVal("thing-1")
	}
	switch f.mode {
	case modeCrash:
		// An unrecovered panic in a handler kills the process, as a
		// provider bug would, with the trace on its stderr.
		panic("fake provider: giving up in the middle of apply")
	case modeWobbly:
		attrs["out"] = cty.StringVal("applied")
	}
	b, err := ctymsgpack.Marshal(cty.ObjectVal(attrs), thingType)
	return &tfplugin5.ApplyResourceChange_Response{NewState: &tfplugin5.DynamicValue{Msgpack: b}}, err
}

func (f *fake) Stop(context.Context, *tfplugin5.Stop_Request) (*tfplugin5.Stop_Response, error) {
	return &tfplugin5.Stop_Response{}, nil
}

// logPlan appends "plan <value>" (the configured value) to plansLog.
func logPlan(req *tfplugin5.PlanResourceChange_Request) error {
	cfg, err := ctymsgpack.Unmarshal(req.Config.Msgpack, thingType)
	if err != nil {
		return err
	}
	what := "destroy"
	if !cfg.IsNull() {
		what = "unknown"
		if v := cfg.GetAttr("value"); v.IsKnown() && !v.IsNull() {
			what = v.AsString()
		}
	}
	f, err := os.OpenFile(plansLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, "plan", what)
	return errors.Join(err, f.Close())
}
