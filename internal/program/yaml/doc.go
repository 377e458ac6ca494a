// Package yaml is plinth's own program format: it reads a plinth program
// (plinth.yaml in a project directory) and runs it: it parses the YAML, checks it statically (names,
// references, cycles, option shapes, config), validates the stack's config
// against the program's declarations, checks resources against provider
// schemas, and then registers every resource with an engine.Monitor as soon
// as everything it references has resolved, so independent resources flow in
// parallel and a program of n resources costs O(n).
//
// The format follows Pulumi YAML where it can: config, variables, resources,
// outputs, ${...} interpolation, fn:: functions, resource options and get
// (a read of an existing resource, registered as engine.Registration.ReadID;
// get.go), plus a top-level providers block. docs/programs.md is the
// reference.
//
// What it leaves out: it does not plan, diff or call providers (that is
// internal/engine, reached only through engine.Monitor), it does not store
// or decrypt config (the CLI passes decrypted values in), and it does not
// render diagnostics beyond their text (internal/display and internal/cli
// do). Pulumi YAML's templates and component packages
// written in YAML are not supported; a resource marked "component: true" is
// registered as a plain component whose outputs are its properties.
//
// Its neighbours: internal/cli loads a Project and passes its Program to the
// engine; the engine implements engine.Monitor; values are sdk/resource
// values; schemas are internal/schema's model (the program does not import
// the provider interface).
package yaml
