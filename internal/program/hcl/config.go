package hcl

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
)

// Module is one module's configuration: the files of one directory.
type Module struct {
	dir    string   // where its files are
	path   []string // module call names from the root; nil for the root
	parent *Module
	call   *moduleCall // the call that made it; nil for the root

	requiredVersion []hcl.Expression
	required        map[string]requiredProvider // by local name
	providers       []*providerConfig
	variables       []*variable
	locals          []*hcl.Attribute
	outputs         []*output
	resources       []*resourceConfig
	calls           []*moduleCall
	checks          []*check
	moves           []*moveStmt    // moved blocks
	imports         []*importStmt  // import blocks (root module only)
	unconfigured    []*importStmt  // imports whose target has no resource block
	removeds        []*removedStmt // removed blocks
	// providerFuncs are the provider-defined functions its files call
	// (provider::time::rfc3339_parse).
	providerFuncs map[string]bool
}

// requiredProvider is an entry of required_providers.
type requiredProvider struct {
	source, version string
	rng             hcl.Range
}

// providerConfig is a provider block.
type providerConfig struct {
	name, alias string
	body        hcl.Body
	rng         hcl.Range
}

// key is how resources name the provider: NAME or NAME.ALIAS.
func (p *providerConfig) key() string {
	if p.alias == "" {
		return p.name
	}
	return p.name + "." + p.alias
}

// variable is a variable block.
type variable struct {
	name        string
	typ         cty.Type
	defaults    *typeexpr.Defaults
	def         hcl.Expression // nil when there is no default
	sensitive   bool
	ephemeral   bool // its value is marked ephemeral: never in state
	nullable    bool
	validations []*condition
	rng         hcl.Range
}

// output is an output block.
type output struct {
	name          string
	value         hcl.Expression
	sensitive     bool
	ephemeral     bool // a module output that may carry ephemeral values
	dependsOn     []hcl.Traversal
	preconditions []*condition
	rng           hcl.Range
}

// condition is a validation, precondition, postcondition or assert.
type condition struct {
	cond, message hcl.Expression
	rng           hcl.Range
}

// Resource modes.
const (
	managed   = "managed"
	dataMode  = "data"
	ephemeral = "ephemeral"
)

// resourceConfig is a resource, data or ephemeral block.
type resourceConfig struct {
	mode, typ, name string
	count, forEach  hcl.Expression
	provider        string // NAME or NAME.ALIAS from the provider meta-argument; "" for the implied one
	providerRange   hcl.Range
	dependsOn       []hcl.Traversal
	lc              lifecycle
	imports         []*importStmt // the import blocks that target it
	body            hcl.Body      // the configuration, without meta-arguments
	provisioners    []*provisionerConfig
	connection      hcl.Body // the resource's connection block, or nil
	// check is the check block a scoped data source is nested in; nil
	// for every other block.
	check *check
	rng   hcl.Range
}

// addr is the resource's address within its module: TYPE.NAME or
// data.TYPE.NAME.
func (r *resourceConfig) addr() string {
	if r.mode == managed {
		return r.typ + "." + r.name
	}
	return r.mode + "." + r.typ + "." + r.name
}

// lifecycle is a resource's lifecycle block.
type lifecycle struct {
	createBeforeDestroy bool
	preventDestroy      bool
	ignoreAll           bool
	ignoreChanges       []hcl.Traversal
	replaceTriggeredBy  []hcl.Expression
	preconditions       []*condition
	postconditions      []*condition
}

// moduleCall is a module block.
type moduleCall struct {
	name           string
	source         string
	count, forEach hcl.Expression
	dependsOn      []hcl.Traversal
	providers      map[string]string // child's key -> parent's key
	args           map[string]*hcl.Attribute
	module         *Module
	rng            hcl.Range
}

// check is a check block.
type check struct {
	name    string
	asserts []*condition
	data    []*resourceConfig // its scoped data sources
	rng     hcl.Range
}
