package registry

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// carriable is a fake Carriable provider process: it remembers the
// configuration it was given, and logs what happens to it.
type carriable struct {
	provider.Fake
	name   string
	log    *processLog
	config string
	exited bool
}

func (p *carriable) Exited() bool { return p.exited }

func (p *carriable) ConfiguredAs(req provider.ConfigureRequest) bool {
	return p.config != "" && p.config == req.Inputs["region"].Str()
}

func (p *carriable) OpenEphemeral(context.Context, provider.OpenEphemeralRequest) (provider.OpenEphemeralResponse, error) {
	return provider.OpenEphemeralResponse{}, nil
}

func (p *carriable) RenewEphemeral(context.Context, provider.RenewEphemeralRequest) (provider.RenewEphemeralResponse, error) {
	return provider.RenewEphemeralResponse{}, nil
}

func (p *carriable) CloseEphemeral(context.Context, provider.CloseEphemeralRequest) error {
	return nil
}

// processLog records the launches, configurations, stop signals and
// closes of the fake processes, in order.
type processLog struct {
	mu     sync.Mutex
	n      int
	events []string
}

func (l *processLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
}

func (l *processLog) launcher() Launcher {
	return LauncherFunc(func(context.Context, plugin.Plugin) (provider.Provider, error) {
		l.mu.Lock()
		l.n++
		name := fmt.Sprintf("p%d", l.n)
		l.mu.Unlock()
		l.add("launch %s", name)
		p := &carriable{name: name, log: l}
		p.ConfigureF = func(_ context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
			p.config = req.Inputs["region"].Str()
			l.add("configure %s %s", name, p.config)
			return provider.ConfigureResponse{AcceptSecrets: true}, nil
		}
		p.SignalCancellationF = func(context.Context) error { l.add("signal %s", name); return nil }
		p.CloseF = func() error { l.add("close %s", name); return nil }
		return p, nil
	})
}

// TestSourceCarriesProvidersAcrossOperations: with Carry, the provider
// an operation (a preview) closes serves the next (the update) when it
// is configured the same way, without a second process or a second
// ConfigureProvider; configured otherwise, it is replaced by a fresh
// process; one the first never configured is configured by the second; one that exited, or one stopped because the command was
// cancelled, is not carried; without Carry each operation starts its own.
func TestSourceCarriesProvidersAcrossOperations(t *testing.T) {
	tests := map[string]struct {
		carry   bool
		first   string // the first operation's configuration; "" for none
		second  string // the second operation's configuration
		between func(t *testing.T, prov provider.Provider, cancel context.CancelFunc)
		want    []string
	}{
		"same configuration": {
			carry: true, first: "eu", second: "eu",
			want: []string{"launch p1", "configure p1 eu", "configure (skipped)", "release", "close p1"},
		},
		"another configuration": {
			carry: true, first: "eu", second: "us",
			want: []string{"launch p1", "configure p1 eu", "launch p2", "close p1", "configure p2 us", "release", "close p2"},
		},
		"never configured by the first": {
			carry: true, second: "eu",
			want: []string{"launch p1", "configure p1 eu", "release", "close p1"},
		},
		"exited between the operations": {
			carry: true, first: "eu", second: "eu",
			between: func(t *testing.T, prov provider.Provider, _ context.CancelFunc) {
				prov.(*carried).get().(*carriable).exited = true
			},
			want: []string{"launch p1", "configure p1 eu", "close p1", "launch p2", "configure p2 eu", "release", "close p2"},
		},
		"command cancelled": {
			carry: true, first: "eu", second: "eu",
			between: func(t *testing.T, _ provider.Provider, cancel context.CancelFunc) { cancel() },
			want:    []string{"launch p1", "configure p1 eu", "signal p1", "close p1", "launch p2", "configure p2 eu", "signal p2", "close p2", "release"},
		},
		"not carrying": {
			first: "eu", second: "eu",
			want: []string{"launch p1", "configure p1 eu", "signal p1", "close p1", "launch p2", "configure p2 eu", "signal p2", "close p2", "release"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tr := newTree(t, everyLayout...)
			log := &processLog{}
			s := NewSource(tr.env, nil, nil, log.launcher())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.carry {
				s.Carry(ctx)
			}
			req := engine.ProviderRequest{Package: "random", Source: "hashicorp/random"}
			operation := func(region string, between func(provider.Provider)) {
				prov, err := s.NewProvider(ctx, req)
				mustOK(t, "NewProvider", err)
				if region != "" {
					before := len(log.events)
					_, err = prov.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Object{"region": resource.NewString(region)}})
					mustOK(t, "Configure", err)
					if len(log.events) == before {
						log.add("configure (skipped)")
					}
				}
				if between != nil {
					between(prov)
				}
				// As the engine's closeAll ends an operation.
				_ = prov.SignalCancellation(ctx)
				_ = prov.Close()
			}
			operation(tc.first, func(prov provider.Provider) {
				if tc.between != nil {
					tc.between(t, prov, cancel)
				}
			})
			operation(tc.second, nil)
			log.add("release")
			s.Release()
			if diff := cmp.Diff(tc.want, log.events); diff != "" {
				t.Errorf("the processes' lives (-want +got):\n%s", diff)
			}
		})
	}
}
