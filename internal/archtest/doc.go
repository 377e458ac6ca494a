// Package archtest holds no code, only a test: the import rules that keep
// the architecture docs/architecture.md describes true (plugins below the
// engine, the program apart from the provider interface, each program
// format apart from the others and the shared program package apart from
// every format, the display apart from the packages whose errors it
// shows, the schema model a leaf, no terraform-plugin-go in the plinth
// binary). The test reads the imports with `go list`, so a change that
// breaks a rule fails `go test ./...`.
package archtest
