package engine

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Options configure one operation. They are not modified once passed.
type Options struct {
	Stack   string
	Project string
	// Providers makes provider instances.
	Providers ProviderSource
	// Journal receives every state change; required by every operation but
	// preview, which changes nothing.
	Journal Journal
	// Parallel bounds the provider steps running at once; 0 means
	// DefaultParallel, 1 runs the provider calls one at a time; a
	// negative value is refused. A step left only to wait until its last
	// journal entry is durable no longer counts (see yieldSlot).
	Parallel int
	// Targets limits the operation to these resources (and, for an update,
	// what they depend on); Excludes to everything but these.
	Targets  []resource.URN
	Excludes []resource.URN
	// Replace forces the replacement of these resources in this run even
	// when nothing changed (`plinth up --replace`); a URN the state does
	// not record is ignored.
	Replace []resource.URN
	// Events, if set, is called for each event, from many goroutines.
	Events func(Event)
	// Now returns the time recorded on resources; time.Now if nil.
	Now func() time.Time
	// DefaultTimeout bounds each provider call of a step whose resource sets
	// no custom timeout; zero means no bound.
	DefaultTimeout time.Duration
	// HardCancel, when done, cancels provider calls in flight too (a second
	// Ctrl-C) and signals the providers; their steps are then left pending
	// in the journal. With HardCancel set, cancelling the operation's
	// context only stops new steps; without it, cancelling also signals the
	// providers.
	HardCancel context.Context
	// DefaultProviderConfig returns the configuration of the default
	// provider for a package (from stack config); nil means empty.
	DefaultProviderConfig func(pkg string) resource.Object
	// ServeMonitor starts a resource monitor serving m, through which a
	// component provider registers a component's children, and returns
	// its address and how to stop it. It is called once, on the first
	// component a provider constructs; nil means such components are
	// refused.
	ServeMonitor func(m Monitor) (addr string, stop func(), err error)
	// Provisioners makes the provisioners registrations name; nil means a
	// registration with provisioners fails when they would run.
	Provisioners ProvisionerSource
	// CheckStep, if set, is called from many goroutines before each step
	// that changes a custom resource starts (see PlannedStep), in a
	// preview and an operation alike: a preview's steps can be saved as a
	// plan, an update's checked against one. An error refuses the step,
	// which fails before anything is recorded, as a failed step does.
	CheckStep func(PlannedStep) error
	// Plans, if set, carries the plans of a preview's providers to the
	// update that follows it in the same process, so that a resource
	// whose inputs and state did not change in between is not planned
	// twice (see Plans). A preview fills it; an update uses it.
	Plans *Plans
	// DestroySetup, if set, runs before a destroy's deletes (and its
	// preview's) to configure the providers they use as the program
	// configures them now: Terraform's provider blocks, whose ephemeral
	// inputs (from ephemeral resources or variables) the state never
	// records. See setupMonitor. Other operations ignore it.
	DestroySetup Program
	// OneDefaultProvider names each package's default provider resource
	// "default" whatever version the program asks for, as a Terraform
	// configuration needs: it has one version of each provider, which its
	// constraints select, and its state names the provider without one.
	// Otherwise the default provider is named per version
	// ("default_3_1_0"), as Pulumi names it: a Pulumi program can use
	// several versions of a package at once.
	OneDefaultProvider bool
}

// defaultProviderName names the default provider resource of a package
// at a version.
func (o *Options) defaultProviderName(version string) string {
	if o.OneDefaultProvider {
		return state.DefaultProviderName("")
	}
	return state.DefaultProviderName(version)
}

// DefaultParallel is the default bound on concurrent steps: provider calls
// mostly wait on the network or a plugin, so several per core.
func DefaultParallel() int { return 16 * runtime.NumCPU() }

// validate refuses options no operation can run with.
func (o *Options) validate() error {
	if o.Parallel < 0 {
		return fmt.Errorf("parallelism %d is not allowed: give the number of provider steps to run at once, 1 or more", o.Parallel)
	}
	return nil
}

func (o *Options) parallel() int {
	if o.Parallel > 0 {
		return o.Parallel
	}
	return DefaultParallel()
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// ProviderSource makes unconfigured provider instances.
type ProviderSource interface {
	NewProvider(ctx context.Context, req ProviderRequest) (provider.Provider, error)
}

// ProviderRequest names the provider plugin wanted.
type ProviderRequest struct {
	Package string
	// Version is a version constraint; "" accepts any.
	Version string
	// Source is a plugin source address (a Terraform registry address such
	// as "hashicorp/random"), if the program gave one.
	Source string
	// DownloadURL is the program's pluginDownloadURL for the plugin ("" for
	// none): where a missing Pulumi plugin may be installed from.
	DownloadURL string
}

// Journal records state changes durably. Record returns once the entry is
// durable; it assigns the entry's Seq. It is safe for concurrent use.
type Journal interface {
	Record(ctx context.Context, e *state.Entry) error
}
