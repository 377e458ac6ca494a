package registry

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/provider"
)

// TestSourceReusesProbedPlugin: a Pulumi plugin whose file name gives no
// version is started once to ask it; when it is the one picked, that
// process is the provider (one start, not two), and when the built-in
// wins it is closed before NewProvider returns. plinth plugin ls --probe
// (no NewProvider) closes what it starts.
func TestSourceReusesProbedPlugin(t *testing.T) {
	tests := map[string]struct {
		version    string // the plugin's answer to GetPluginInfo
		wantPlugin bool
	}{
		"newer than the built-in": {version: "0.2.0", wantPlugin: true},
		"older than the built-in": {version: "0.0.9", wantPlugin: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tr := newTree(t, "path1/pulumi-resource-plinth")
			var launched, closed int
			var started []provider.Provider
			launcher := LauncherFunc(func(_ context.Context, p plugin.Plugin) (provider.Provider, error) {
				launched++
				f := &provider.Fake{
					GetPluginInfoF: func(context.Context) (provider.PluginInfo, error) {
						return provider.PluginInfo{Name: "plinth", Version: tc.version}, nil
					},
					CloseF: func() error { closed++; return nil },
				}
				started = append(started, f)
				return f, nil
			})
			builtins := map[string]Builtin{"plinth": {Version: "0.1.0", New: func() (provider.Provider, error) { return &provider.Fake{}, nil }}}
			s := NewSource(tr.env, builtins, launcher, nil)
			got, err := s.NewProvider(context.Background(), engine.ProviderRequest{Package: "plinth"})
			if err != nil {
				t.Fatal(err)
			}
			wantClosed := 1
			if tc.wantPlugin {
				wantClosed = 0
			}
			if diff := cmp.Diff([]int{1, wantClosed}, []int{launched, closed}); diff != "" {
				t.Errorf("[launches, closes] (-want +got):\n%s", diff)
			}
			if isProbed := len(started) == 1 && got == started[0]; isProbed != tc.wantPlugin {
				t.Errorf("the provider returned is the probed plugin: %v, want %v", isProbed, tc.wantPlugin)
			}
			NewSource(tr.env, builtins, launcher, nil).Finder.List(context.Background(), true)
			if launched != 2 || closed != wantClosed+1 {
				t.Errorf("plugin ls --probe left a probed plugin running (%d launched, %d closed)", launched, closed)
			}
		})
	}
}
