package provider

import (
	"context"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Provisioner runs an action on a resource that has just been created (or
// is about to be destroyed): Terraform's provisioners. The built-in
// local-exec and file provisioners (internal/provisioner) run in process;
// provisioner plugins run out of process over the tfplugin5 Provisioner
// service (internal/provider/tfplugin).
type Provisioner interface {
	// ValidateConfig checks a provisioner block's configuration; failures
	// come back per property.
	ValidateConfig(ctx context.Context, req ValidateProvisionerRequest) (ValidateProvisionerResponse, error)
	// Provision runs the provisioner, sending its output to req.Output line
	// by line. A cancelled ctx ends it (plugins are also told to Stop).
	Provision(ctx context.Context, req ProvisionRequest) error
	// Stop asks a running Provision to end early.
	Stop(ctx context.Context) error
	// Close releases the provisioner (a plugin process exits).
	Close() error
}

// ValidateProvisionerRequest is a provisioner's configuration to check.
type ValidateProvisionerRequest struct {
	Config resource.Object
}

// ValidateProvisionerResponse lists what is wrong with a configuration.
type ValidateProvisionerResponse struct {
	Failures []CheckFailure
}

// ProvisionRequest asks a provisioner to run with Config (the evaluated
// provisioner block) and Connection (how to reach the resource, for
// provisioners that connect to it; nil when none is given).
type ProvisionRequest struct {
	Config     resource.Object
	Connection resource.Object
	// Output receives the provisioner's output, one line per call; it may
	// be nil.
	Output func(line string)
}
