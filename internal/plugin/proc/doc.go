// Package proc starts plugin processes tied to plinth's life and keeps a
// bounded tail of what they write.
//
// Start puts each plugin in a process group of its own (so a terminal's
// Ctrl-C reaches plinth, which cancels and closes providers in order, and
// so Kill reaches the plugin's children too) and, on Linux, asks the kernel
// to SIGKILL it when plinth dies (PR_SET_PDEATHSIG). That signal fires
// when the *thread* that forked the child exits, not the process, so every
// plugin is forked from one goroutine locked to its OS thread for the life
// of plinth: the Go runtime never ends that thread, and a plugin started
// from a goroutine that happened to be locked (and ends) is not killed
// early. A plugin's own children are not covered by the death signal; Kill
// and Close reach them through the process group.
//
// A Process's output readers end when the process exits, even when a child
// it left keeps the pipes open (exec.Cmd.WaitDelay), so nothing waiting on
// them can hang plinth.
//
// Tail keeps the last lines a plugin wrote, bounded in bytes, for error
// messages.
//
// Neighbours: internal/provider/pulumirpc and internal/provider/mu (through
// internal/provider/grpcplugin) and internal/provider/tfplugin
// (through go-plugin's RunnerFunc) start their plugins here.
package proc
