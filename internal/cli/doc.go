// Package cli is the plinth command line: one cobra command per file,
// global flags (-C, --stack, --color, --verbose), and the wiring that
// puts a command's pieces together: the project directory and its
// program (in the format format.go chooses: internal/program/yaml,
// internal/program/hcl, or a Pulumi program through internal/langhost),
// the stack's config file beside it (plinth.<stack>.yaml, secrets
// sealed by internal/secrets), the state
// store under .plinth (internal/state/file), the provider source
// (internal/registry over internal/plugin's finder, with the built-in
// provider in process and launchers for Pulumi and Terraform plugins, all
// in providers.go), the engine
// (internal/engine) and the view that shows progress (internal/display).
//
// Commands run against an Env rather than the process directly: standard
// streams, whether they are terminals, environment variables, the clock
// and interrupts. cmd/plinth passes the real ones (System); tests pass
// buffers, a fixed clock and their own interrupts, and drive the real
// command code in process.
//
// It decides nothing about resources (the engine does), parses no
// programs (the formats under internal/program do) and draws nothing
// itself beyond plain listings (internal/display draws operations and
// diagnostics).
package cli
