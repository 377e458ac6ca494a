package program

import (
	"encoding/json"
	"time"

	"github.com/plinth-iac/plinth/internal/schema"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Options configure how a program runs.
type Options struct {
	// Warn receives warnings: an undeclared config key, a provider schema
	// that could not be loaded. Nil drops them. It may be called from any
	// goroutine.
	Warn func(Diagnostic)
	// Stack is the stack the program runs for (terraform.workspace in
	// the Terraform format).
	Stack string
	// Vars and VarFiles are the -var NAME=VALUE and -var-file FILE
	// arguments, in command-line order, for formats that take input
	// variables on the command line (Terraform). The YAML format refuses
	// them: its inputs are the stack config.
	Vars     []string
	VarFiles []string
	// Getenv reads the environment (TF_VAR_ variables); nil means
	// os.Getenv.
	Getenv func(string) string
	// GenerateConfigOut is `plinth preview --generate-config-out=FILE`:
	// import blocks whose target has no resource block are allowed, the
	// resources read, and their configuration written to FILE, which must
	// not exist (Terraform format only).
	GenerateConfigOut string
	// DeferredRead, if set, hears of each data source instance a
	// preview cannot read yet (its arguments are unknown or it depends
	// on changes pending), which is read during apply instead, and of
	// each data source nested in a check block, which is read again
	// during apply. It may be called from any goroutine, and during an
	// update too.
	DeferredRead func(DeferredRead)
	// Reading, if set, hears when a data source read or an ephemeral
	// resource's opening starts and when it completes, as terraform
	// prints "data.x.y: Reading..." and "Read complete after 0s
	// [id=...]". It may be called from any goroutine.
	Reading func(Reading)
	// TypeSchema, if set, hears the provider's schema of each resource
	// and data source type the program uses, once it is loaded and before
	// anything runs, so that a display can show values by it (which are
	// nested blocks, sets, maps or objects). It may be called from any
	// goroutine.
	TypeSchema func(TypeSchema)
	// OutputTypes, if set, hears the types of the root module's outputs
	// (by name, in cty's JSON type syntax) each time the program has
	// evaluated them, so that a display can write them as terraform does
	// (tolist(...), toset(...), tomap(...)).
	OutputTypes func(map[string]json.RawMessage)
	// Destroy is set when the program runs to configure providers for a
	// destroy (engine.Options.DestroySetup) rather than to plan or apply
	// it. The Terraform format then checks no precondition,
	// postcondition or check block assertion, as terraform's destroy
	// checks none; variable validations, errors in expressions and the
	// sensitivity of root outputs are checked as in any run.
	Destroy bool
}

// DeferredRead is a data source instance left to be read during apply.
type DeferredRead struct {
	Address string          // data.local_file.read, module.m.data.x.y[0]
	Type    string          // the data source's type token
	Args    resource.Object // its arguments, unknown ones included
	Reason  DeferReason     // why the read waits, as terraform's plan says
}

// Reading is a data source read, or an ephemeral resource's opening,
// starting or completed.
type Reading struct {
	Address   string        // data.local_file.read, ephemeral.random_password.p
	Type      string        // the type token
	Ephemeral bool          // an ephemeral resource's opening, not a read
	Done      bool          // completed (a failure is reported as a diagnostic)
	ID        string        // the id the read returned, when Done; "" if none
	SecretID  bool          // the id is sensitive
	Duration  time.Duration // how long it took, when Done
}

// TypeSchema is the schema of a resource or data source type.
type TypeSchema struct {
	Type string // the type token
	// Data says it is a data source's (a data source's token may be a
	// resource type's too: local_file).
	Data bool
	// Properties are its attributes and nested blocks, computed ones
	// included.
	Properties map[string]schema.Property
}

// DeferReason says why a data source read is left to apply. When both
// hold, the configuration's unknown values are the reason given, as in
// terraform.
type DeferReason uint8

// The reasons for a deferred read.
const (
	// ReadConfigUnknown: its arguments refer to values not yet known.
	ReadConfigUnknown DeferReason = iota
	// ReadDependencyPending: its arguments are known, but it depends on a
	// resource (or a module containing one) with changes pending.
	ReadDependencyPending
	// ReadCheckNested: it is nested in a check block, which terraform
	// reads again during every apply ("config will be reloaded to
	// verify a check block"). Args then hold what the plan read, or
	// what a failed read would have returned, unknown.
	ReadCheckNested
)
