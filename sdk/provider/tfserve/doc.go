// Package tfserve serves an SDK provider (sdk/provider.Provider) as a
// Terraform provider over plugin protocol 6 or 5, with
// github.com/hashicorp/terraform-plugin-go's tf6server and tf5server, so
// that terraform (or plinth's own Terraform adapter) drives it. A
// provider's main package is one line:
//
//	func main() { tfserve.Main("registry.terraform.io/me/pets", pets.New()) }
//
// The mapping:
//
//   - Names: type tokens become Terraform type names (plinth:random:Pet is
//     plinth_random_pet; the module is left out when it is "index"),
//     properties become snake_case attributes (createDuration is
//     create_duration), functions snake_case names (getEnv is get_env).
//     Every resource gets a computed id attribute holding its ID.
//   - Schema: a required input is required; an optional one optional, and
//     also computed when it has a default or is tagged computed (Check
//     fills it in, and the plan shows it); an output-only property is
//     computed; secret is sensitive; docs are descriptions. Nested objects
//     (and lists and maps of them) are nested attributes in protocol 6 and
//     nested blocks in protocol 5 (and in 6 when the property is a
//     provider.Property.Block, as timeouts are); values of any type are
//     dynamic. A
//     deprecated property is a deprecated attribute (validating a resource,
//     data source, ephemeral resource or the provider configuration warns
//     where the configuration sets it, at any depth); a write-only
//     one is a WriteOnly attribute, null in every planned and new state
//     and left out of private state. A set property is a set attribute
//     (its element paths stop at the set, which Terraform indexes by
//     value).
//   - ValidateResourceConfig runs Check; PlanResourceChange runs Check,
//     Diff (replacement becomes requires_replace) and a preview of Create
//     or Update, so outputs the SDK cannot know yet are unknown;
//     ApplyResourceChange runs Create, Update or Delete; ReadResource runs
//     Read (a resource that is gone is null); ImportResourceState runs Read
//     with the ID alone. Planned and new states keep what the
//     configuration sets exactly as Terraform sent it (its spelling, and
//     an unknown keeps its type), and the provider's values fill the
//     computed attributes the configuration leaves null, at any depth
//     (overlay.go). A provider that normalises an input keeps the
//     configured spelling: a refresh keeps the recorded value of an input
//     read back as its checked form, and a plan with no change found
//     keeps the prior values. Private state records the checked inputs,
//     so Diff and Update see the inputs as the SDK checked them, apart
//     from outputs of the same name, and the resource's own private data
//     (provider.PrivateProperty), given back in later ops.
//   - UpgradeResourceState passes state of an older schema version to the
//     resource's provider.StateUpgrader.
//   - Each SDK function is a provider-defined function (its required
//     arguments, then its optional ones, in name order; it returns the
//     result object) and a data source (arguments and result as
//     attributes).
//   - ValidateProviderConfig and ConfigureProvider run CheckConfig and
//     Configure; StopProvider runs Cancel. Terraform validates and calls
//     functions without configuring the provider: tfserve then configures
//     it once, as in a preview, with its required properties unknown.
//   - Errors and check failures become diagnostics, on the attribute they
//     name (inside a protocol 6 nested attribute, on that attribute or
//     its list element or map entry: terraform finds source locations
//     through nested blocks only, and would otherwise point at the
//     resource block; the detail names the full path); a panic in
//     provider code becomes a diagnostic naming the method and type.
//   - The ephemeral resources of a provider.EphemeralProvider are
//     ephemeral resources: Open, Renew and Close run the SDK's, with its
//     private data and renewal time.
//
// It leaves out resource identity, moving state between types,
// generating configuration, and deferred actions.
//
// Only provider main packages import this package: terraform-plugin-go
// registers the same protobuf names as plinth's generated tfplugin5 and
// tfplugin6 packages, and a binary linking both panics at start. Its
// neighbours are sdk/provider (what is served) and terraform-plugin-go
// (the wire); plinth's client for the same protocol is
// internal/provider/tfplugin.
package tfserve
