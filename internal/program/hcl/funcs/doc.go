// Package funcs is the Terraform language's library of built-in functions
// for plinth's HCL front end: every function Terraform 1.11 has that needs
// no network, with Terraform's results, edge cases and error messages.
//
// Table returns them keyed by their Terraform names, each also under its
// "core::" alias. Functions that read files resolve relative paths against
// the base directory given to Table (path.module). Values marked Sensitive
// keep the mark through every function, as in Terraform; Ephemeral is the
// mark ephemeralasnull removes.
//
// Most functions come from go-cty's stdlib, which Terraform itself uses; the
// rest are written here from Terraform's documented behaviour (never copied
// from its source). try and can come from hcl's ext/tryfunc: they take
// expressions, so the front end must evaluate calls with hcl's evaluator.
//
// Deliberately left out: provider-defined functions ("provider::..."),
// which the front end routes to providers, and the console-only "type".
// Neighbours: internal/program/hcl (the front end) is the only caller.
package funcs
