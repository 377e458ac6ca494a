package tfplugin

import (
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/grpc"

	"github.com/plinth-iac/plinth/sdk/tfplugin5"
	"github.com/plinth-iac/plinth/sdk/tfplugin6"
)

// fakeModeEnv, when set, makes the test binary serve a fake provider instead
// of running tests (the helper-process pattern): TestMain calls serveFake.
const fakeModeEnv = "PLINTH_TFPLUGIN_FAKE"

// Fake provider modes.
const (
	modeInconsistent = "inconsistent" // v5: apply returns a value the plan did not promise
	modeReplan       = "replan"       // v5: every plan promises a different value
	modeCrash        = "crash"        // v5: apply kills the process
	modePartial      = "partial"      // v5: apply fails after creating something
	modeNested6      = "nested6"      // v6: a resource with nested attributes
	modeUpgrade      = "upgrade"      // v5: schema version 2; version 1 called value old_value
	modeHang         = "hang"         // v5: apply waits until it is cancelled
	modeSilent       = "silent"       // never completes the handshake
	modeSpam         = "spam"         // v5: writes 8 MiB to stderr (4 MiB in one line) before serving
	modeGarbage      = "garbage"      // v5: apply answers a new state that is not msgpack
	modeRefuse       = "refuse"       // v5: apply reports an error and no object
	modeHuge         = "huge"         // v5: apply answers a 17 MiB state
	modeNoID         = "noid"         // v5: apply reports an error and an object with a null id
	modeNormalise    = "normalise"    // v5: plans the configured value upper-cased
	modePlain        = "plain"        // v5: no fault
	modeCacheable    = "cacheable"    // v5: GetProviderSchemaOptional; GetSchema appends a line to $PLINTH_TFPLUGIN_FAKE_SCHEMA_LOG
	modeLegacy       = "legacy"       // v5: plans and applies flagged as the legacy SDK's type system
)

// fakeUpgradeLogEnv names a file the fake appends a line to on every
// UpgradeResourceState, so tests count the calls.
const fakeUpgradeLogEnv = "PLINTH_TFPLUGIN_FAKE_UPGRADE_LOG"

// fakeSchemaLogEnv names a file the fake appends a line to on every
// GetSchema, so tests count the calls.
const fakeSchemaLogEnv = "PLINTH_TFPLUGIN_FAKE_SCHEMA_LOG"

// fakeEnvLogEnv names a file the fake writes its collector settings to
// when it starts (GOGC and GOMEMLIMIT, each "=value" or " unset"), so
// tests see the environment plinth gave it.
const fakeEnvLogEnv = "PLINTH_TFPLUGIN_FAKE_ENV_LOG"

// fakeCertLogEnv names a file the fake writes the client certificate it
// was given to (clientCertEnv: the key's curve), so tests see what mutual
// TLS plinth asked for.
const fakeCertLogEnv = "PLINTH_TFPLUGIN_FAKE_CERT_LOG"

// describeClientCert names the curve of the client certificate in
// clientCertEnv, or says why there is none.
func describeClientCert() string {
	block, _ := pem.Decode([]byte(os.Getenv(clientCertEnv)))
	if block == nil {
		return "no client certificate"
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return "unreadable client certificate: " + err.Error()
	}
	key, ok := cert.PublicKey.(*ecdsa.PublicKey)
	if !ok {
		return fmt.Sprintf("client certificate with a %T key", cert.PublicKey)
	}
	return "client certificate with an ECDSA " + key.Curve.Params().Name + " key"
}

func serveFake(mode string) {
	if path := os.Getenv(fakeCertLogEnv); path != "" {
		_ = os.WriteFile(path, []byte(describeClientCert()), 0o644)
	}
	if path := os.Getenv(fakeEnvLogEnv); path != "" {
		var b strings.Builder
		for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
			if v, ok := os.LookupEnv(k); ok {
				fmt.Fprintf(&b, "%s=%s\n", k, v)
			} else {
				fmt.Fprintf(&b, "%s unset\n", k)
			}
		}
		_ = os.WriteFile(path, []byte(b.String()), 0o644)
	}
	switch mode {
	case modeSilent:
		time.Sleep(time.Hour)
	case modeSpam:
		line := strings.Repeat("x", 1<<20)
		for i := 0; i < 4; i++ {
			fmt.Fprint(os.Stderr, line)
		}
		fmt.Fprintln(os.Stderr)
		for i := 0; i < 40000; i++ {
			fmt.Fprintln(os.Stderr, "noise", i, strings.Repeat("y", 100))
		}
	}
	sets := map[int]plugin.PluginSet{5: {"provider": fakePlugin{v5: &fake5{mode: mode}}}}
	if mode == modeNested6 {
		sets = map[int]plugin.PluginSet{6: {"provider": fakePlugin{v6: &fake6{}}}}
	}
	plugin.Serve(&plugin.ServeConfig{HandshakeConfig: Handshake, VersionedPlugins: sets, GRPCServer: plugin.DefaultGRPCServer})
}

// fakePlugin is the server side of go-plugin for one fake.
type fakePlugin struct {
	plugin.NetRPCUnsupportedPlugin
	v5 *fake5
	v6 *fake6
}

func (f fakePlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	if f.v6 != nil {
		tfplugin6.RegisterProviderServer(s, f.v6)
	} else {
		tfplugin5.RegisterProviderServer(s, f.v5)
	}
	return nil
}

func (fakePlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, errors.New("server only")
}

// thingType is the state type of the v5 fake's only resource, fake_thing.
var thingType = cty.Object(map[string]cty.Type{"id": cty.String, "value": cty.String, "out": cty.String})

func stringType() []byte { b, _ := ctyjson.MarshalType(cty.String); return b }

// fake5 is a tfplugin5 provider with one resource type, fake_thing: value
// is configurable, id and out are computed. Its mode decides how it fails.
type fake5 struct {
	tfplugin5.UnimplementedProviderServer
	mode  string
	plans atomic.Int64
}

func (f *fake5) GetSchema(context.Context, *tfplugin5.GetProviderSchema_Request) (*tfplugin5.GetProviderSchema_Response, error) {
	attr := func(name string, optional, computed bool) *tfplugin5.Schema_Attribute {
		return &tfplugin5.Schema_Attribute{Name: name, Type: stringType(), Optional: optional, Computed: computed}
	}
	thing := &tfplugin5.Schema{Block: &tfplugin5.Schema_Block{Attributes: []*tfplugin5.Schema_Attribute{
		attr("id", false, true), attr("value", true, false), attr("out", false, true),
	}}}
	if f.mode == modeUpgrade {
		thing.Version = 2
	}
	token := &tfplugin5.Schema{Block: &tfplugin5.Schema_Block{Attributes: []*tfplugin5.Schema_Attribute{
		attr("name", true, false), attr("token", false, true),
	}}}
	resp := &tfplugin5.GetProviderSchema_Response{
		Provider:                 &tfplugin5.Schema{Block: &tfplugin5.Schema_Block{}},
		ResourceSchemas:          map[string]*tfplugin5.Schema{"fake_thing": thing},
		EphemeralResourceSchemas: map[string]*tfplugin5.Schema{"fake_token": token},
	}
	if f.mode == modeCacheable {
		resp.ServerCapabilities = &tfplugin5.ServerCapabilities{GetProviderSchemaOptional: true}
	}
	if log := os.Getenv(fakeSchemaLogEnv); log != "" {
		if err := appendLine(log, "GetSchema"); err != nil {
			return nil, err
		}
	}
	return resp, nil
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (f *fake5) PrepareProviderConfig(context.Context, *tfplugin5.PrepareProviderConfig_Request) (*tfplugin5.PrepareProviderConfig_Response, error) {
	return &tfplugin5.PrepareProviderConfig_Response{}, nil
}

func (f *fake5) Configure(context.Context, *tfplugin5.Configure_Request) (*tfplugin5.Configure_Response, error) {
	return &tfplugin5.Configure_Response{}, nil
}

// ValidateResourceTypeConfig warns about the value "deprecated".
func (f *fake5) ValidateResourceTypeConfig(_ context.Context, req *tfplugin5.ValidateResourceTypeConfig_Request) (*tfplugin5.ValidateResourceTypeConfig_Response, error) {
	cfg, err := ctymsgpack.Unmarshal(req.Config.Msgpack, thingType)
	resp := &tfplugin5.ValidateResourceTypeConfig_Response{}
	if v := cfg.GetAttr("value"); err == nil && v.IsKnown() && v.RawEquals(cty.StringVal("deprecated")) {
		resp.Diagnostics = []*tfplugin5.Diagnostic{{Severity: tfplugin5.Diagnostic_WARNING,
			Summary: "Deprecated value", Detail: "use another one", Attribute: attrPath5("value")}}
	}
	return resp, err
}

// UpgradeResourceState renames old_value to value for states of version 1
// (in upgrade mode).
func (f *fake5) UpgradeResourceState(_ context.Context, req *tfplugin5.UpgradeResourceState_Request) (*tfplugin5.UpgradeResourceState_Response, error) {
	if log := os.Getenv(fakeUpgradeLogEnv); log != "" {
		if err := appendLine(log, req.TypeName); err != nil {
			return nil, err
		}
	}
	raw := req.RawState.Json
	if f.mode == modeUpgrade && req.Version == 1 {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		m["value"] = m["old_value"]
		delete(m, "old_value")
		raw, _ = json.Marshal(m)
	}
	v, err := ctyjson.Unmarshal(raw, thingType)
	if err != nil {
		return nil, err
	}
	b, err := ctymsgpack.Marshal(v, thingType)
	return &tfplugin5.UpgradeResourceState_Response{UpgradedState: &tfplugin5.DynamicValue{Msgpack: b}}, err
}

func (f *fake5) ReadResource(_ context.Context, req *tfplugin5.ReadResource_Request) (*tfplugin5.ReadResource_Response, error) {
	return &tfplugin5.ReadResource_Response{NewState: req.CurrentState, Private: req.Private}, nil
}

func (f *fake5) PlanResourceChange(_ context.Context, req *tfplugin5.PlanResourceChange_Request) (*tfplugin5.PlanResourceChange_Response, error) {
	proposed, err := ctymsgpack.Unmarshal(req.ProposedNewState.Msgpack, thingType)
	if err != nil || proposed.IsNull() {
		return &tfplugin5.PlanResourceChange_Response{PlannedState: req.ProposedNewState}, err
	}
	attrs := proposed.AsValueMap()
	if attrs["id"].IsNull() {
		attrs["id"] = cty.UnknownVal(cty.String)
	}
	attrs["out"] = cty.StringVal("planned")
	if f.mode == modeNormalise && attrs["value"].IsKnown() && !attrs["value"].IsNull() {
		attrs["value"] = cty.StringVal(strings.ToUpper(attrs["value"].AsString()))
	}
	if f.mode == modeReplan {
		attrs["out"] = cty.StringVal(fmt.Sprintf("plan %d", f.plans.Add(1)))
	}
	b, err := ctymsgpack.Marshal(cty.ObjectVal(attrs), thingType)
	return &tfplugin5.PlanResourceChange_Response{PlannedState: &tfplugin5.DynamicValue{Msgpack: b}, LegacyTypeSystem: f.mode == modeLegacy}, err
}

func (f *fake5) ApplyResourceChange(ctx context.Context, req *tfplugin5.ApplyResourceChange_Request) (*tfplugin5.ApplyResourceChange_Response, error) {
	switch f.mode {
	case modeHang:
		<-ctx.Done()
		return nil, ctx.Err()
	case modeGarbage:
		return &tfplugin5.ApplyResourceChange_Response{NewState: &tfplugin5.DynamicValue{Msgpack: []byte{0xc1, 0xff, 0x00}}}, nil
	case modeRefuse:
		return &tfplugin5.ApplyResourceChange_Response{Diagnostics: []*tfplugin5.Diagnostic{{
			Severity: tfplugin5.Diagnostic_ERROR, Summary: "Quota exceeded", Detail: "no more things in this account",
		}}}, nil
	}
	planned, err := ctymsgpack.Unmarshal(req.PlannedState.Msgpack, thingType)
	if err != nil || planned.IsNull() {
		return &tfplugin5.ApplyResourceChange_Response{NewState: req.PlannedState}, err
	}
	attrs := planned.AsValueMap()
	if !attrs["id"].IsKnown() {
		attrs["id"] = cty.StringVal("thing-1")
	}
	resp := &tfplugin5.ApplyResourceChange_Response{}
	switch f.mode {
	case modeCrash:
		// An unrecovered panic in a handler kills the process, as a real
		// provider bug would, with the trace on the process's stderr.
		panic("fake provider: giving up in the middle of apply")
	case modeInconsistent:
		attrs["out"] = cty.StringVal("applied")
	case modeHuge:
		attrs["out"] = cty.StringVal(strings.Repeat("h", 17<<20))
	case modeNoID:
		attrs["id"] = cty.NullVal(cty.String)
		resp.Diagnostics = []*tfplugin5.Diagnostic{{Severity: tfplugin5.Diagnostic_ERROR, Summary: "Quota exceeded"}}
	case modePartial:
		resp.Diagnostics = []*tfplugin5.Diagnostic{{
			Severity: tfplugin5.Diagnostic_ERROR, Summary: "Creation failed halfway",
			Detail: "the thing exists but is not ready", Attribute: attrPath5("out"),
		}}
	}
	b, err := ctymsgpack.Marshal(cty.ObjectVal(attrs), thingType)
	resp.NewState = &tfplugin5.DynamicValue{Msgpack: b}
	resp.LegacyTypeSystem = f.mode == modeLegacy
	return resp, err
}

func attrPath5(name string) *tfplugin5.AttributePath {
	return &tfplugin5.AttributePath{Steps: []*tfplugin5.AttributePath_Step{
		{Selector: &tfplugin5.AttributePath_Step_AttributeName{AttributeName: name}},
	}}
}

func (f *fake5) Stop(context.Context, *tfplugin5.Stop_Request) (*tfplugin5.Stop_Response, error) {
	return &tfplugin5.Stop_Response{}, nil
}

// rulesType is the state type of the v6 fake's resource, fake_rules: a list
// nested attribute of {name, port}, port defaulting to 80.
var (
	ruleType  = cty.Object(map[string]cty.Type{"name": cty.String, "port": cty.Number})
	rulesType = cty.Object(map[string]cty.Type{"id": cty.String, "rules": cty.List(ruleType)})
)

// fake6 is a well-behaved tfplugin6 provider with nested attributes.
type fake6 struct {
	tfplugin6.UnimplementedProviderServer
}

func (f *fake6) GetProviderSchema(context.Context, *tfplugin6.GetProviderSchema_Request) (*tfplugin6.GetProviderSchema_Response, error) {
	numberType, _ := ctyjson.MarshalType(cty.Number)
	rules := &tfplugin6.Schema_Attribute{Name: "rules", Optional: true, NestedType: &tfplugin6.Schema_Object{
		Nesting: tfplugin6.Schema_Object_LIST,
		Attributes: []*tfplugin6.Schema_Attribute{
			{Name: "name", Type: stringType(), Required: true},
			{Name: "port", Type: numberType, Optional: true, Computed: true},
		},
	}}
	schema := &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{
		{Name: "id", Type: stringType(), Computed: true}, rules,
	}}}
	return &tfplugin6.GetProviderSchema_Response{
		Provider:        &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{}},
		ResourceSchemas: map[string]*tfplugin6.Schema{"fake_rules": schema},
	}, nil
}

func (f *fake6) ValidateProviderConfig(context.Context, *tfplugin6.ValidateProviderConfig_Request) (*tfplugin6.ValidateProviderConfig_Response, error) {
	return &tfplugin6.ValidateProviderConfig_Response{}, nil
}

func (f *fake6) ConfigureProvider(context.Context, *tfplugin6.ConfigureProvider_Request) (*tfplugin6.ConfigureProvider_Response, error) {
	return &tfplugin6.ConfigureProvider_Response{}, nil
}

func (f *fake6) ValidateResourceConfig(context.Context, *tfplugin6.ValidateResourceConfig_Request) (*tfplugin6.ValidateResourceConfig_Response, error) {
	return &tfplugin6.ValidateResourceConfig_Response{}, nil
}

func (f *fake6) UpgradeResourceState(_ context.Context, req *tfplugin6.UpgradeResourceState_Request) (*tfplugin6.UpgradeResourceState_Response, error) {
	v, err := ctyjson.Unmarshal(req.RawState.Json, rulesType)
	if err != nil {
		return nil, err
	}
	b, err := ctymsgpack.Marshal(v, rulesType)
	return &tfplugin6.UpgradeResourceState_Response{UpgradedState: &tfplugin6.DynamicValue{Msgpack: b}}, err
}

func (f *fake6) ReadResource(_ context.Context, req *tfplugin6.ReadResource_Request) (*tfplugin6.ReadResource_Response, error) {
	return &tfplugin6.ReadResource_Response{NewState: req.CurrentState, Private: req.Private}, nil
}

func (f *fake6) PlanResourceChange(_ context.Context, req *tfplugin6.PlanResourceChange_Request) (*tfplugin6.PlanResourceChange_Response, error) {
	proposed, err := ctymsgpack.Unmarshal(req.ProposedNewState.Msgpack, rulesType)
	if err != nil || proposed.IsNull() {
		return &tfplugin6.PlanResourceChange_Response{PlannedState: req.ProposedNewState}, err
	}
	attrs := proposed.AsValueMap()
	if attrs["id"].IsNull() {
		attrs["id"] = cty.UnknownVal(cty.String)
	}
	if rules := attrs["rules"]; !rules.IsNull() && rules.IsKnown() && rules.LengthInt() > 0 {
		var out []cty.Value
		for _, r := range rules.AsValueSlice() {
			m := r.AsValueMap()
			if m["port"].IsNull() {
				m["port"] = cty.NumberIntVal(80)
			}
			out = append(out, cty.ObjectVal(m))
		}
		attrs["rules"] = cty.ListVal(out)
	}
	b, err := ctymsgpack.Marshal(cty.ObjectVal(attrs), rulesType)
	return &tfplugin6.PlanResourceChange_Response{PlannedState: &tfplugin6.DynamicValue{Msgpack: b}}, err
}

func (f *fake6) ApplyResourceChange(_ context.Context, req *tfplugin6.ApplyResourceChange_Request) (*tfplugin6.ApplyResourceChange_Response, error) {
	planned, err := ctymsgpack.Unmarshal(req.PlannedState.Msgpack, rulesType)
	if err != nil || planned.IsNull() {
		return &tfplugin6.ApplyResourceChange_Response{NewState: req.PlannedState}, err
	}
	attrs := planned.AsValueMap()
	if !attrs["id"].IsKnown() {
		attrs["id"] = cty.StringVal("rules-1")
	}
	b, err := ctymsgpack.Marshal(cty.ObjectVal(attrs), rulesType)
	return &tfplugin6.ApplyResourceChange_Response{NewState: &tfplugin6.DynamicValue{Msgpack: b}}, err
}

func (f *fake6) StopProvider(context.Context, *tfplugin6.StopProvider_Request) (*tfplugin6.StopProvider_Response, error) {
	return &tfplugin6.StopProvider_Response{}, nil
}
