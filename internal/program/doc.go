// Package program is what plinth's program formats share: the model of
// a program as the engine and the CLI see it, whatever language it is
// written in. It holds the diagnostics every format reports (Diagnostic,
// Diagnostics, Severity: file, line, column, property path and a detail
// saying how to fix it), the Options a run takes (warnings, the stack,
// -var and -var-file, deferred data source reads), ConfigValue for
// "plinth config set", the mapping of written resource and function
// types to tokens and packages (NormalizeType, NormalizeFunction), and
// the registration "plinth import TYPE NAME ID" makes
// (ImportRegistration).
//
// Each format is a package below this one that turns its files into
// engine registrations through engine.Monitor: internal/program/yaml
// (plinth.yaml) and internal/program/hcl (Terraform's .tf files). A
// format imports this package and never another format, and this
// package imports no format (internal/archtest checks both); a third
// format is a new package beside them plus its entry in the CLI's table
// of formats (internal/cli/format.go).
//
// What it leaves out: parsing, evaluating and running a program are each
// format's own (their languages share no syntax tree or evaluator), and
// it neither plans nor calls providers (internal/engine) nor renders
// diagnostics (internal/display).
package program
