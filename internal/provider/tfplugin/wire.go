package tfplugin

import (
	"context"
	"time"

	"github.com/zclconf/go-cty/cty"
)

// wire is what the adapter needs of a Terraform provider process, in
// protocol-neutral terms. wire5 and wire6 map it onto tfplugin5 and
// tfplugin6; everything above this interface is shared.
type wire interface {
	schema(ctx context.Context) (schemaResponse, error)
	decodeSchema(raw []byte) (schemaResponse, error)
	validateProviderConfig(ctx context.Context, config dynamicValue) ([]diagnostic, error)
	validateResourceConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error)
	validateDataConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error)
	upgradeState(ctx context.Context, req upgradeRequest) (upgradeResponse, error)
	configure(ctx context.Context, config dynamicValue) ([]diagnostic, error)
	readResource(ctx context.Context, req readRequest) (readResponse, error)
	planChange(ctx context.Context, req planRequest) (planResponse, error)
	applyChange(ctx context.Context, req applyRequest) (applyResponse, error)
	importState(ctx context.Context, typeName, id string) (importResponse, error)
	readData(ctx context.Context, typeName string, config dynamicValue) (readDataResponse, error)
	callFunction(ctx context.Context, name string, args []dynamicValue) (callResponse, error)
	validateEphemeralConfig(ctx context.Context, typeName string, config dynamicValue) ([]diagnostic, error)
	openEphemeral(ctx context.Context, typeName string, config dynamicValue) (openEphemeralResponse, error)
	renewEphemeral(ctx context.Context, typeName string, private []byte) (renewEphemeralResponse, error)
	closeEphemeral(ctx context.Context, typeName string, private []byte) ([]diagnostic, error)
	stop(ctx context.Context) error
}

// dynamicValue is a value on the wire: msgpack normally, JSON from some
// older providers' upgrade answers.
type dynamicValue struct {
	msgpack []byte
	json    []byte
}

type severity uint8

const (
	severityError severity = iota + 1
	severityWarning
)

// diagnostic is a provider's error or warning. path is nil when the
// diagnostic is not about one attribute.
type diagnostic struct {
	severity severity
	summary  string
	detail   string
	path     cty.Path
}

// capabilities are the optional behaviours the provider opted into.
type capabilities struct {
	planDestroy       bool
	moveResourceState bool
	// schemaOptional is the provider's promise that it answers every call
	// without first being asked for its schema, which lets the schema
	// cache skip GetProviderSchema.
	schemaOptional bool
}

// deferral is a provider's request to postpone an operation; plinth never
// allows deferral, so a non-empty reason is an error.
type deferral string

type schemaResponse struct {
	provider    *schema
	resources   map[string]*schema
	dataSources map[string]*schema
	ephemerals  map[string]*schema
	functions   map[string]*function
	caps        capabilities
	diags       []diagnostic
	// encode renders the answer as it came off the wire, for the schema
	// cache; nil for an answer read from the cache.
	encode func() ([]byte, error)
}

type upgradeRequest struct {
	typeName string
	version  int64
	rawJSON  []byte
}

type upgradeResponse struct {
	state dynamicValue
	diags []diagnostic
}

type readRequest struct {
	typeName string
	state    dynamicValue
	private  []byte
}

type readResponse struct {
	state    dynamicValue
	private  []byte
	diags    []diagnostic
	deferred deferral
}

type planRequest struct {
	typeName     string
	prior        dynamicValue
	proposed     dynamicValue
	config       dynamicValue
	priorPrivate []byte
}

type planResponse struct {
	planned         dynamicValue
	requiresReplace []cty.Path
	plannedPrivate  []byte
	legacyTypes     bool
	diags           []diagnostic
	deferred        deferral
}

type applyRequest struct {
	typeName       string
	prior          dynamicValue
	planned        dynamicValue
	config         dynamicValue
	plannedPrivate []byte
}

type applyResponse struct {
	state       dynamicValue
	private     []byte
	legacyTypes bool
	diags       []diagnostic
}

type imported struct {
	typeName string
	state    dynamicValue
	private  []byte
}

type importResponse struct {
	resources []imported
	diags     []diagnostic
	deferred  deferral
}

// openEphemeralResponse is an opened ephemeral resource.
type openEphemeralResponse struct {
	result   dynamicValue
	private  []byte
	renewAt  time.Time
	diags    []diagnostic
	deferred deferral
}

// renewEphemeralResponse is a renewed ephemeral resource.
type renewEphemeralResponse struct {
	private []byte
	renewAt time.Time
	diags   []diagnostic
}

type readDataResponse struct {
	state    dynamicValue
	diags    []diagnostic
	deferred deferral
}

type callResponse struct {
	result dynamicValue
	// err is the function's failure, with the index of the argument at
	// fault or -1.
	err      string
	argument int64
}
