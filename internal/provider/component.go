package provider

import (
	"errors"
	"fmt"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// ErrNoComponents is the error of Construct and Call on a provider that
// implements no component resources (a Terraform provider, a Mu provider,
// an SDK provider without components). Adapters wrap it with the
// provider's name and the type asked for; test for it with errors.Is.
var ErrNoComponents = errors.New("the provider implements no component resources")

// NoComponents is ErrNoComponents for one provider and one type or method.
func NoComponents(provider, token string) error {
	return fmt.Errorf("provider %s cannot construct or call %s: %w; "+
		"use a type the provider's schema lists as a resource, or a provider that implements the component", provider, token, ErrNoComponents)
}

// RunInfo is what a component provider needs to talk back to the engine:
// the address of the engine's resource monitor, through which it registers
// the component's children, and the operation's project, stack and
// configuration.
type RunInfo struct {
	MonitorAddress string
	Project        string
	Stack          string
	// Config maps fully-qualified configuration keys (pkg:name) to their
	// values; ConfigSecretKeys lists those that are secret.
	Config           map[string]string
	ConfigSecretKeys []string
	DryRun           bool
	Parallel         int
}

// ComponentOptions are the resource options of a component registration
// that a component provider passes on to the component and its children.
type ComponentOptions struct {
	Aliases   []resource.URN
	DependsOn []resource.URN
	Protect   bool
	// Providers maps a package name to a provider reference (urn::id) the
	// children of that package use.
	Providers               map[string]string
	AdditionalSecretOutputs []string
	CustomTimeouts          CustomTimeouts
	DeletedWith             resource.URN
	DeleteBeforeReplace     bool
	IgnoreChanges           []string
	ReplaceOnChanges        []string
	RetainOnDelete          bool
}

// CustomTimeouts are per-operation timeouts; zero means the default.
type CustomTimeouts struct {
	Create, Update, Delete time.Duration
}

// Dependencies maps a property name to the URNs its value depends on.
type Dependencies map[string][]resource.URN

// ConstructRequest asks a component provider to build a component: it
// registers the component (of Type, named Name, under Parent) and its
// children with the monitor at Info.MonitorAddress, and answers with the
// component's URN and outputs.
type ConstructRequest struct {
	Info              RunInfo
	Type              string
	Name              string
	Parent            resource.URN
	Inputs            resource.Object
	InputDependencies Dependencies
	Options           ComponentOptions
}

// ConstructResponse carries the constructed component's URN and outputs,
// with the URNs each output depends on.
type ConstructResponse struct {
	URN                resource.URN
	Outputs            resource.Object
	OutputDependencies Dependencies
}

// CallRequest calls a method of a component (Token, e.g.
// pkg:index:Component/method); Args holds the component itself under
// "__self__" and the method's arguments.
type CallRequest struct {
	Info            RunInfo
	Token           string
	Args            resource.Object
	ArgDependencies Dependencies
}

// CallResponse carries a method's result, with the URNs each returned
// property depends on, or argument failures.
type CallResponse struct {
	Return             resource.Object
	ReturnDependencies Dependencies
	Failures           []CheckFailure
}
