// Package runtime runs Pulumi programs through a language host plugin,
// pulumi-language-<runtime>, speaking Pulumi's LanguageRuntime gRPC
// protocol: the way Pulumi itself runs programs in YAML, Python, .NET,
// Java and Go. plinth starts the plugin tied to its own life
// (internal/plugin/proc, through internal/provider/grpcplugin), with the
// resource monitor's and engine service's address (internal/monitor, served
// by langhost.Program) as its engine, and asks it to Run the program.
//
// Find looks for the plugin where plinth looks for providers
// (internal/plugin: the project's .plinth/plugins, PLINTH_PLUGIN_PATH,
// PLINTH_HOME's plugins), then on PATH, then in Pulumi's plugin cache
// (~/.pulumi/plugins/language-<runtime>-v<version>/). A missing plugin is
// a MissingHostError naming the runtime, where plinth looked and what to
// install.
//
// Client is the protocol: Handshake (where the plugin has it),
// GetRequiredPackages (GetRequiredPlugins for older plugins),
// InstallDependencies and Run. Host adapts it to langhost.Host: one plugin
// process per program run, ended with the run together with whatever it
// started (on Linux: a host starts provider plugins of its own, in
// process groups of their own). A plugin that crashes, or
// does not print its port in time, is an error naming the plugin, how it
// ended and its last stderr lines; since the program then registered
// nothing more, the engine changes nothing it did not register.
//
// Language hosts that load provider schemas themselves (pulumi-language-
// yaml does: LoadsSchemas) find providers as Pulumi does, on PATH or in
// Pulumi's plugin cache, and download what they cannot find; the plugin's
// PATH starts with the directories of the Pulumi providers plinth found,
// so that both use the same ones, and before the program runs plinth asks
// the host which packages it uses and fails with a MissingProviderError
// for any whose plugin the host would not find.
//
// Left out: installing language hosts or a program's dependencies on its
// own (Client.InstallDependencies is there for a caller that asks), the
// plugin's schema loader service (LoaderTarget; the hosts plinth has been
// tried with load schemas themselves), and debugging attach ports.
//
// Neighbours: internal/langhost (Host, Program), internal/langhost/nodejs
// (plinth's own Node.js launch, which this package does not replace) and
// internal/langhost/golang (plinth's own Go runner).
package runtime
