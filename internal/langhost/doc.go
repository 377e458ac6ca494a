// Package langhost runs Pulumi programs written in a general-purpose
// language against plinth's engine: a directory with a Pulumi.yaml is a
// Pulumi project; its runtime (nodejs, python, go...) picks a Host, which
// starts the program the way Pulumi's language host for that runtime does,
// pointing it at a resource monitor (internal/monitor) that feeds the
// engine. Program adapts the whole to engine.Program, so the CLI runs a
// Pulumi program exactly as it runs a YAML one.
//
// Node.js has plinth's own Host (langhost/nodejs); yaml, python, dotnet,
// java and go run through Pulumi's language host plugins
// (langhost/runtime, pulumi-language-<runtime>); any other runtime is
// refused with a clear error. The package does not install dependencies:
// the program's own package manager does (npm install).
//
// Config: the stack's values (Pulumi's Pulumi.<stack>.yaml, its secure
// values opened by the CLI with Pulumi's passphrase provider, and plinth's
// plinth.<stack>.yaml) reach the program as Pulumi's language hosts pass
// them, a JSON object of "project:key" strings, objects as JSON with any
// secret inside in plain text, and the keys holding a secret listed apart.
//
// Dynamic providers: a runtime whose SDK serves providers written in the
// program (Pulumi's pulumi.dynamic.Resource, package pulumi-nodejs) is a
// ProviderHost; Program.HostedProvider describes that provider for
// internal/registry, which starts it in place of any plugin, configured
// with every stack config value as Pulumi's engine configures it.
package langhost
