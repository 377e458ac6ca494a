// Package plinth holds plinth's built-in provider, package "plinth", written
// with the public SDK (sdk/provider) as any third-party provider would be,
// save one thing: plinth:exec:Command starts its commands with
// internal/plugin/proc, which ties them and everything they start to
// plinth's life:
//
//   - plinth:random:Pet, plinth:random:String, plinth:random:Integer:
//     random values, replaced when a keeper changes (random.go);
//   - plinth:fs:File: a local file (fs.go);
//   - plinth:exec:Command: shell commands run on create, update and delete
//     (exec.go);
//   - plinth:time:Sleep: waits, for demos and parallelism tests (sleep.go);
//   - the functions plinth:index:getEnv and plinth:index:readFile, so a
//     program has something to invoke without a network (functions.go).
//
// Its configuration has one property, root: the directory relative paths
// resolve against (the CLI passes the project directory; else the working
// directory).
//
// New builds a fresh, unconfigured instance. The engine serves it in
// process through internal/provider/inproc; cmd/pulumi-resource-plinth
// serves the same provider over pulumirpc. Nothing here touches the engine
// or a wire protocol.
package plinth
