// Package component is the end-to-end test of component providers: a
// provider written with plinth's SDK (internal/pulumi-resource-comp), run
// out of process through PLINTH_PLUGIN_PATH, builds a component from a YAML
// program through the CLI, registering its children through the engine's
// resource monitor.
package component
