// Package examples holds runnable plinth programs, one project directory
// each (quickstart, parallel). They need nothing but Go: only the built-in
// providers and the local state store. Its tests run every example through
// the real command line, and follow the README from a fresh clone.
//
// pulumi-nodejs is a Pulumi TypeScript program run unchanged by plinth; it
// also needs node and npm (its tests install its packages once, cached under
// the OS temp dir, and skip where npm is missing). Its plugin directory is a
// second program using the provider out of process. BenchmarkFrontEnds
// times 2,000 resources through its SDK, from a TypeScript and from a
// plain JavaScript program, against the same from YAML; its doc comment
// gives the figures.
//
// pulumi-dynamic is a Pulumi JavaScript program with a dynamic provider
// (pulumi.dynamic.Resource, served by the pulumi-nodejs provider plinth
// hosts from the program's own SDK): a File written by create and update,
// removed by delete, whose content comes from the stack config the
// provider is configured with (a value and a secret) and from
// `new pulumi.Config()` in the provider's process.
//
// provider is not a program but a provider written with plinth's SDK,
// using every feature the SDK offers authors; its README walks through
// it, its own tests run it in process and under Pulumi's client, and
// e2e/tfserve/acceptance runs it under terraform. Other tests may reuse it
// (its node_modules from internal/langhost/nodejs/nodetest).
package examples
