package acceptance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	example "github.com/plinth-iac/plinth/examples/provider"
	"github.com/plinth-iac/plinth/sdk/provider/tfserve"
)

// exampleConfig writes configuration for the example provider: nested
// objects are blocks in protocol 5 and attributes in protocol 6.
type exampleConfig struct {
	protocol int
	dir      string
}

func (c exampleConfig) provider() string {
	return fmt.Sprintf("provider \"example\" {\n  dir = %q\n}\n", c.dir)
}

// nested writes a nested object in the protocol's syntax.
func (c exampleConfig) nested(name, body string) string {
	if c.protocol == 5 {
		return fmt.Sprintf("  %s {\n    %s\n  }\n", name, body)
	}
	return fmt.Sprintf("  %s = {\n    %s\n  }\n", name, body)
}

// block writes a nested block, as timeouts is in both protocols (the
// SDK's Timeouts type asks for a block).
func block(name, body string) string {
	return fmt.Sprintf("  %s {\n    %s\n  }\n", name, body)
}

// server writes an example_server "s" with the given attribute lines and
// nested objects (already written by nested).
func (c exampleConfig) server(lines ...string) string {
	return c.provider() + "resource \"example_server\" \"s\" {\n" + strings.Join(lines, "\n") + "\n}\n"
}

// runExample runs a test case on both protocols against the example
// provider, its records in a fresh directory.
func runExample(t *testing.T, tc func(c exampleConfig) resource.TestCase) {
	for _, protocol := range []int{5, 6} {
		t.Run(fmt.Sprintf("protocol%d", protocol), func(t *testing.T) {
			if testing.Short() {
				t.Skip("acceptance tests drive terraform; skipped in -short mode")
			}
			c := tc(exampleConfig{protocol: protocol, dir: t.TempDir()})
			if protocol == 5 {
				c.ProtoV5ProviderFactories = map[string]func() (tfprotov5.ProviderServer, error){
					"example": func() (tfprotov5.ProviderServer, error) { return tfserve.NewServer5(example.New()) }}
			} else {
				c.ProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
					"example": func() (tfprotov6.ProviderServer, error) { return tfserve.NewServer6(example.New()) }}
			}
			resource.Test(t, c)
		})
	}
}

// recordHas checks the example's record of server id for text.
func recordHas(dir, id, text string, want bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		data, err := os.ReadFile(filepath.Join(dir, id+".json"))
		if err != nil {
			return err
		}
		if got := strings.Contains(string(data), text); got != want {
			return fmt.Errorf("record of %s contains %q: %v, want %v:\n%s", id, text, got, want, data)
		}
		return nil
	}
}

// TestAccExampleServer drives every feature of the example provider's
// resource: nested defaults, write-only, timeouts, import, stable
// outputs, update, the two kinds of replacement and destroy.
func TestAccExampleServer(t *testing.T) {
	const addr = "example_server.s"
	var serial ids
	runExample(t, func(c exampleConfig) resource.TestCase {
		listener := func(port int) string { return c.nested("listener", fmt.Sprintf("port = %d", port)) }
		timeouts := block("timeouts", `create = "1m"`)
		return resource.TestCase{
			CheckDestroy: func(*terraform.State) error {
				if _, err := os.Stat(filepath.Join(c.dir, "web.json")); !os.IsNotExist(err) {
					return fmt.Errorf("the record of web is still there after destroy (%v)", err)
				}
				return nil
			},
			Steps: []resource.TestStep{
				{
					Config: c.server(`  name = "web"`, `  admin_password = "correct-horse"`, `  tags = { env = "test" }`,
						`  zones = ["b", "a"]`, listener(8080), timeouts),
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttr(addr, "id", "web"),
						resource.TestCheckResourceAttr(addr, "size", "small"),
						resource.TestCheckResourceAttr(addr, "listener.protocol", "tcp"),
						resource.TestCheckResourceAttr(addr, "address", "web:8080"),
						resource.TestCheckNoResourceAttr(addr, "admin_password"),
						resource.TestCheckResourceAttr(addr, "timeouts.create", "1m"),
						resource.TestCheckResourceAttr(addr, "zones.#", "2"),
						resource.TestCheckTypeSetElemAttr(addr, "zones.*", "a"),
						resource.TestCheckTypeSetElemAttr(addr, "zones.*", "b"),
						recordHas(c.dir, "web", `"passwordHash"`, true),
						recordHas(c.dir, "web", "correct-horse", false),
						serialOf(&serial, addr, "")),
				},
				{ResourceName: addr, ImportState: true, ImportStateVerify: true,
					ImportStateVerifyIgnore: []string{"timeouts"}},
				{
					// A set in another order is the same set: no change.
					Config: c.server(`  name = "web"`, `  admin_password = "correct-horse"`, `  tags = { env = "test" }`,
						`  zones = ["a", "b"]`, listener(8080), timeouts),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				},
				{
					// Growing is an update; the serial is stable, so the plan
					// knows it; the address follows the port, so it does not.
					Config: c.server(`  name = "web"`, `  size = "large"`, `  tags = { env = "test" }`, listener(9090), timeouts),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("serial"), knownvalue.NotNull()),
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("address")),
					}},
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttr(addr, "address", "web:9090"),
						serialOf(&serial, addr, "same")),
				},
				{
					// Shrinking replaces (the resource's Differ).
					Config:           c.server(`  name = "web"`, `  size = "medium"`, `  tags = { env = "test" }`, listener(9090), timeouts),
					ConfigPlanChecks: expect(addr, plancheck.ResourceActionReplace),
					Check:            serialOf(&serial, addr, "changed"),
				},
				{
					// A new name replaces (replaceOnChanges).
					Config:           c.server(`  name = "api"`, `  size = "medium"`, `  tags = { env = "test" }`, listener(9090)),
					ConfigPlanChecks: expect(addr, plancheck.ResourceActionReplace),
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttr(addr, "id", "api"),
						serialOf(&serial, addr, "changed")),
				},
				{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			},
		}
	})
}

// serialOf records the serial of addr; how says whether it must be the
// same as the last one, changed, or anything ("").
func serialOf(i *ids, addr, how string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		v, err := attrOf(s, addr, "serial")
		if err != nil {
			return err
		}
		prev := i.last
		i.last = v
		switch {
		case v == "":
			return fmt.Errorf("%s has no serial", addr)
		case how == "same" && v != prev:
			return fmt.Errorf("%s changed serial from %q to %q; want an update in place", addr, prev, v)
		case how == "changed" && v == prev:
			return fmt.Errorf("%s kept serial %q; want a replacement", addr, v)
		}
		return nil
	}
}

// TestAccExampleInvalidConfig checks that each validate rule fails the
// plan with the attribute's full path, nested ones too.
func TestAccExampleInvalidConfig(t *testing.T) {
	runExample(t, func(c exampleConfig) resource.TestCase {
		step := func(want string, lines ...string) resource.TestStep {
			return resource.TestStep{Config: c.server(lines...), ExpectError: regexp.MustCompile(want)}
		}
		return resource.TestCase{Steps: []resource.TestStep{
			step(`name: must match the pattern \[a-z\]\[a-z0-9-\]\*, got "Web_1"`, `  name = "Web_1"`),
			step(`size: must be one of "small", "medium", "large", got "huge"`, `  name = "web"`, `  size = "huge"`),
			// terraform shows the source it found for the diagnostic's
			// path: the port itself inside a protocol 5 block, the
			// listener's value in protocol 6 (it cannot look inside a
			// nested attribute), never the resource block.
			step(`(?s)\d+:\s+(port = 0|listener = \{)\n.*listener\.port: must be at least 1, got 0`,
				`  name = "web"`, c.nested("listener", "port = 0")),
			step(`listener\.protocol: must be one of "tcp", "udp", got "sctp"`, `  name = "web"`,
				c.nested("listener", `port = 80
    protocol = "sctp"`)),
			step(`admin_password: must have at least 8 characters, got 3`, `  name = "web"`, `  admin_password = "abc"`),
			step(`(?s)\d+:\s+create = "soon"\n.*timeouts\.create: must be a duration`, `  name = "web"`, block("timeouts", `create = "soon"`)),
			step(`zones: must have at most 3 elements, got 4`, `  name = "web"`, `  zones = ["a", "b", "c", "d"]`),
			step(`tags: must have at most 5 entries, got 6`, `  name = "web"`,
				`  tags = { a = "1", b = "2", c = "3", d = "4", e = "5", f = "6" }`),
		}}
	})
}

// TestAccExampleFunction calls the example's provider-defined functions:
// slug with its optional separator left null and given, join with a
// variadic argument given three values and none.
func TestAccExampleFunction(t *testing.T) {
	runExample(t, func(c exampleConfig) resource.TestCase {
		return resource.TestCase{Steps: []resource.TestStep{{
			Config: c.provider() + `
output "dashed" { value = provider::example::slug("Hello Big World", null).slug }
output "dotted" { value = provider::example::slug("Hello Big World", ".").slug }
output "joined" { value = provider::example::join("/", "a", "b", "c").joined }
output "none" { value = provider::example::join("/").joined }
`,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckOutput("dashed", "hello-big-world"),
				resource.TestCheckOutput("dotted", "hello.big.world"),
				resource.TestCheckOutput("joined", "a/b/c"),
				resource.TestCheckOutput("none", "")),
		}}}
	})
}

// TestAccExampleEphemeralToken opens the example's ephemeral token and
// passes it to the server's write-only password: terraform opens it for
// the plan and for the apply and revokes it each time, and the record
// keeps the hash of a token that was issued.
func TestAccExampleEphemeralToken(t *testing.T) {
	runExample(t, func(c exampleConfig) resource.TestCase {
		config := c.provider() + `
ephemeral "example_token" "t" {
  server = "web"
}
resource "example_server" "s" {
  name           = "web"
  admin_password = ephemeral.example_token.t.token
}
`
		return resource.TestCase{Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckNoResourceAttr("example_server.s", "admin_password"),
				func(*terraform.State) error { return tokensIssuedAndRevoked(c.dir, "web") }),
		}}}
	})
}

// tokensIssuedAndRevoked checks tokens.log: every token issued was
// revoked, and the record of server keeps the hash of one of them.
func tokensIssuedAndRevoked(dir, server string) error {
	data, err := os.ReadFile(filepath.Join(dir, "tokens.log"))
	if err != nil {
		return err
	}
	issued, revoked, hashes := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 6 && f[0] == "issued":
			issued[f[1]], hashes[f[5]] = true, true
		case len(f) == 2 && f[0] == "revoked":
			revoked[f[1]] = true
		}
	}
	if len(issued) == 0 || fmt.Sprint(issued) != fmt.Sprint(revoked) {
		return fmt.Errorf("tokens issued %v, revoked %v; want each issued token revoked:\n%s", issued, revoked, data)
	}
	rec, err := os.ReadFile(filepath.Join(dir, server+".json"))
	if err != nil {
		return err
	}
	for h := range hashes {
		if strings.Contains(string(rec), h) {
			return nil
		}
	}
	return fmt.Errorf("the record of %s holds none of the issued tokens' hashes %v:\n%s", server, hashes, rec)
}

// allow writes the example's set of objects, allow, in the protocol's
// syntax: repeated blocks in protocol 5, a set of objects in 6.
func (c exampleConfig) allow(elems ...string) string {
	if c.protocol == 5 {
		var b strings.Builder
		for _, e := range elems {
			b.WriteString(block("allow", e))
		}
		return b.String()
	}
	return "  allow = [" + strings.Join(func() []string {
		out := make([]string, len(elems))
		for i, e := range elems {
			out[i] = "{ " + e + " }"
		}
		return out
	}(), ", ") + "]\n"
}

// TestAccExampleSetOfObjects drives a set of objects (allow, a set of
// listeners whose protocol defaults to tcp): create, import, the same
// elements in another order and with the default spelled out are no
// change, an invalid element fails naming the attribute inside it, and
// removing one is an update.
func TestAccExampleSetOfObjects(t *testing.T) {
	const addr = "example_server.s"
	runExample(t, func(c exampleConfig) resource.TestCase {
		return resource.TestCase{
			Steps: []resource.TestStep{
				{
					Config: c.server(`  name = "web"`, c.allow(`port = 443`, `port = 80`+"\n    "+`protocol = "udp"`)),
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttr(addr, "allow.#", "2"),
						resource.TestCheckTypeSetElemNestedAttrs(addr, "allow.*", map[string]string{"port": "443", "protocol": "tcp"}),
						resource.TestCheckTypeSetElemNestedAttrs(addr, "allow.*", map[string]string{"port": "80", "protocol": "udp"}),
						recordHas(c.dir, "web", `"Port": 443`, true)),
				},
				{ResourceName: addr, ImportState: true, ImportStateVerify: true},
				{
					Config:           c.server(`  name = "web"`, c.allow(`port = 80`+"\n    "+`protocol = "udp"`, `port = 443`+"\n    "+`protocol = "tcp"`)),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				},
				{
					// A set's elements have no index in Terraform: the
					// path names the attribute in the element.
					Config:      c.server(`  name = "web"`, c.allow(`port = 443`, `port = 0`)),
					ExpectError: regexp.MustCompile(`allow\.port: must be at least 1, got 0`),
				},
				{
					Config: c.server(`  name = "web"`, c.allow(`port = 443`)),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttr(addr, "allow.#", "1"),
						recordHas(c.dir, "web", `"Port": 80`, false)),
				},
			},
		}
	})
}
