package provider

import (
	"context"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Provisioner describes a provisioner written with the SDK: an action run
// on a resource after it is created (or before it is destroyed), as
// Terraform's provisioners are. sdk/provider/provserve serves one as a
// plugin (terraform-provisioner-NAME) over the tfplugin5 Provisioner
// service, which plinth and terraform drive.
type Provisioner struct {
	// Name is the provisioner's type as programs name it.
	Name        string
	Description string
	// Config describes its configuration, keyed by attribute name as
	// programs write it (e.g. "message").
	Config map[string]Property
	// Validate, if set, checks a configuration beyond its schema. The
	// configuration may hold unknown values (resource.Value.IsUnknown):
	// Terraform validates before the resource it runs on exists, so an
	// attribute built from self.id is unknown then. Provision always gets
	// known values.
	Validate func(ctx context.Context, config resource.Object) []CheckFailure
	// Provision runs the provisioner. It should return when ctx is
	// cancelled (the user pressed Ctrl-C, or a timeout ran out).
	Provision func(ctx context.Context, req ProvisionRequest) error
}

// ProvisionRequest is one run of a provisioner.
type ProvisionRequest struct {
	Config resource.Object
	// Connection says how to reach the resource; nil when not given.
	Connection resource.Object
	// Output sends one line of output to the user's display.
	Output func(line string)
}
