package terraform

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFaults breaks a working stack in one way each, through the command
// line: the up must fail with a message that says what is wrong and
// where, exit non-zero, and leave the state's resources as they were.
func TestFaults(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		// program changes the program: old -> new.
		program [2]string
		// want are fragments of the output, in order.
		want []string
		// added are the URNs (after the last "::") the failed up may
		// record: the default provider it started, an object it made.
		added []string
		// failedInit lists added objects recorded as failed to initialise.
		failedInit []string
	}{
		"provider missing": {
			program: addResource("widget", "acme_widget", "size: 3"),
			want: []string{
				`error: Provider plugin not found`, `no plugin found for package "acme"`, "plinth looked in:",
				"/.plinth/plugins (project)", pluginDir + " (PLINTH_PLUGIN_PATH)", fakeDir + " (PLINTH_PLUGIN_PATH)",
				"Install pulumi-resource-acme or terraform-provider-acme_v<version>",
			},
		},
		"no version satisfies the constraint": {
			program: [2]string{`version: "~> 3.6"`, `version: "~> 9.0"`},
			want: []string{
				`error: Provider plugin not found`, `no plugin for package "random" matches version "~> 9.0"; found:`,
				"terraform-provider random 3.9.0 at " + filepath.Join(pluginDir, "terraform-provider-random_v3.9.0"),
				"plinth looked in:", pluginDir + " (PLINTH_PLUGIN_PATH)",
			},
		},
		"provider crashes": {
			program: addResource("thing", "crash_thing", "value: v"),
			want: []string{
				`+ create failed thing (crash:index:crash_thing)`,
				`error: urn:pulumi:dev::tffault::crash:index:crash_thing::thing: Resource failed`,
				`provider crash crashed during ApplyResourceChange for Create of crash_thing "thing"`,
				"The provider's last output was:", "panic: fake provider: giving up in the middle of apply",
			},
			added: []string{"default"},
		},
		"invalid configuration (provider's validation)": {
			program: addResource("pw", "random_password", "length: 0"),
			want: []string{
				"error: urn:pulumi:dev::tffault::random:index:random_password::pw: Invalid inputs",
				"length: Invalid Attribute Value: Attribute length value must be at least 1, got: 0",
				"Fix these properties in the program.",
			},
		},
		"invalid configuration (nested attribute)": {
			program: addResource("cert", "tls_self_signed_cert", "private_key_pem: x, validity_period_hours: 1, allowed_uses: [bogus]"),
			want: []string{
				"error: urn:pulumi:dev::tffault::tls:index:tls_self_signed_cert::cert: Invalid inputs",
				`allowed_uses[0]: Invalid Attribute Value Match: Attribute allowed_uses[0] value must be one of:`, `got: "bogus"`,
			},
		},
		"invalid configuration (not in the schema)": {
			program: addResource("pw", "random_password", "lenght: 12"),
			want: []string{
				"plinth.yaml:17:", "Unknown property (resources.pw.properties.lenght)",
				`random:index:random_password has no input property "lenght". Did you mean "length"?`,
			},
		},
		"inconsistent result after apply": {
			program: addResource("thing", "wobbly_thing", "value: v"),
			want: []string{
				`error: urn:pulumi:dev::tffault::wobbly:index:wobbly_thing::thing: Resource failed`,
				`resource thing-1 was created but failed to initialise: provider wobbly produced an inconsistent result after apply during Create of wobbly_thing "thing": out: was "planned", but now "applied".`,
				"This is a bug in the provider; report it to its maintainers",
			},
			// The object exists: it is recorded, as terraform records it
			// (tainted), so that the next up deals with it.
			added: []string{"default", "thing"}, failedInit: []string{"thing"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := realProject(t, "fault")
			p.opts.Env["PLINTH_PLUGIN_PATH"] = pluginDir + string(filepath.ListSeparator) + fakeDir
			p.must("up", "--yes")
			before := p.stateResources()
			if len(before) != 3 {
				t.Fatalf("the working stack records %d resources, want 3 (the pet and two providers)", len(before))
			}
			p.edit(tc.program[0], tc.program[1])
			r := p.run("up", "--yes")
			if r.Code != 1 {
				t.Errorf("up exited %d, want 1", r.Code)
			}
			checkInOrder(t, r.Output(), tc.want)
			checkRecorded(t, before, p.stateResources(), tc.added, tc.failedInit)
		})
	}
}

// checkRecorded checks that what a failed up recorded (after) is what it
// held before, plus the added resources, named by the last part of their
// URN.
func checkRecorded(t *testing.T, before, after map[string]map[string]any, wantAdded, wantFailedInit []string) {
	t.Helper()
	var added, failedInit []string
	for urn, res := range after {
		if _, ok := before[urn]; ok {
			continue
		}
		name := urn[strings.LastIndex(urn, "::")+2:]
		added = append(added, name)
		if res["initErrors"] != nil {
			failedInit = append(failedInit, name)
		}
		delete(after, urn)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("the failed up changed recorded resources (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(wantAdded, added, sorted); diff != "" {
		t.Errorf("resources the failed up recorded (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantFailedInit, failedInit); diff != "" {
		t.Errorf("resources recorded as failed to initialise (-want +got):\n%s", diff)
	}
}

// addResource is a program change adding a resource of one line of
// properties.
func addResource(name, typ, props string) [2]string {
	return [2]string{"outputs:", "  " + name + ":\n    type: " + typ + "\n    properties: { " + props + " }\noutputs:"}
}

// checkInOrder checks that out holds each fragment, in order.
func checkInOrder(t *testing.T, out string, fragments []string) {
	t.Helper()
	rest := out
	for _, f := range fragments {
		i := strings.Index(rest, f)
		if i < 0 {
			t.Errorf("the output lacks %q (after the fragments before it):\n%s", f, out)
			return
		}
		rest = rest[i+len(f):]
	}
}

// stateResources returns the resources of the stack's state, as plinth
// state export writes them, by URN.
func (p *project) stateResources() map[string]map[string]any {
	p.t.Helper()
	var exported struct {
		Resources []map[string]any `json:"resources"`
	}
	r := p.must("state", "export")
	if err := json.Unmarshal([]byte(r.Stdout), &exported); err != nil {
		p.t.Fatalf("state export: %v\n%s", err, r.Stdout)
	}
	out := map[string]map[string]any{}
	for _, res := range exported.Resources {
		out[res["urn"].(string)] = res
	}
	return out
}
