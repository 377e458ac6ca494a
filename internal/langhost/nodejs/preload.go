package nodejs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The preload is a small script node runs before @pulumi/pulumi's run
// entry. It makes the SDK's log.debug do what it does when no engine is
// connected (nothing) instead of sending each message to the engine
// service: @pulumi/pulumi sends three or more debug messages per resource,
// one RPC each, and plinth drops every one of them (see
// monitor.engineService.Log). For 2,000 resources that was more than half
// of plinth's own CPU time and a sixth of node's. Pulumi's engine
// receives them because it can show them (pulumi -v=9); plinth never
// does, so nothing the user sees changes. Info, warning and error logs go
// to the engine as before.
//
// It is loaded through NODE_OPTIONS rather than node's --require, which
// @pulumi/pulumi reads as a custom loader and then turns off its automatic
// ES-module mode; the script puts the user's NODE_OPTIONS back, so the
// program's own child processes do not load it.
const preloadScript = `// Written by plinth for one run; see internal/langhost/nodejs/preload.go.
"use strict";
(function () {
  const user = process.env.PLINTH_USER_NODE_OPTIONS;
  if (user === undefined) { delete process.env.NODE_OPTIONS; } else { process.env.NODE_OPTIONS = user; }
  delete process.env.PLINTH_USER_NODE_OPTIONS;
  let log;
  try { log = require(%s); } catch (e) { return; }
  if (log && typeof log.debug === "function") {
    log.debug = function () { return Promise.resolve(); };
  }
})();
`

// userNodeOptions is where the preload finds the user's NODE_OPTIONS.
const userNodeOptions = "PLINTH_USER_NODE_OPTIONS"

// writePreload writes the preload for the SDK whose run entry is entry
// and returns its path and a function that removes it.
func writePreload(entry string) (string, func(), error) {
	sdk := filepath.Dir(filepath.Dir(filepath.Dir(entry))) // …/@pulumi/pulumi
	target, err := json.Marshal(filepath.Join(sdk, "log", "index.js"))
	if err != nil {
		return "", nil, err
	}
	f, err := os.CreateTemp("", "plinth-nodejs-preload-*.js")
	if err != nil {
		return "", nil, fmt.Errorf("writing the Node.js preload script: %w", err)
	}
	_, err = fmt.Fprintf(f, preloadScript, target)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	remove := func() { _ = os.Remove(f.Name()) }
	if err != nil {
		remove()
		return "", nil, fmt.Errorf("writing the Node.js preload script: %w", err)
	}
	return f.Name(), remove, nil
}

// withPreload adds the preload to env's NODE_OPTIONS, keeping the user's
// options (which the preload restores) in userNodeOptions.
func withPreload(env []string, path string) []string {
	user, set := "", false
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "NODE_OPTIONS="); ok {
			user, set = v, true
			continue
		}
		if !strings.HasPrefix(kv, userNodeOptions+"=") {
			out = append(out, kv)
		}
	}
	opts := "--require " + quoteNodeOption(path)
	if set {
		out = append(out, userNodeOptions+"="+user)
		opts = user + " " + opts
	}
	return append(out, "NODE_OPTIONS="+opts)
}

// quoteNodeOption quotes a value for NODE_OPTIONS, which node splits on
// spaces outside double quotes and in which a backslash escapes the next
// character.
func quoteNodeOption(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
