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
// StartChild starts a command plinth runs for the user (a
// plinth:exec:Command, a local-exec provisioner). A death signal alone
// would kill only the shell and leave what it started (a subshell, a
// sleep before a write) to finish later, so the command runs under a
// reaper: this binary again, selected by an environment variable in
// init. The reaper leads a process group of its own holding the command
// and all it starts, has a death signal on Linux (on other Unix systems
// it checks its parent ten times a second), and kills the whole group
// with SIGKILL when plinth dies. Cancelling the command's context sends
// the group SIGTERM, then SIGKILL after Grace. Starting the reaper costs
// about 10 ms. A process that leaves the group (setsid) escapes it.
// TiesChildren says whether the system guarantees the tie (Linux only).
//
// A Process's output readers end when the process exits, even when a child
// it left keeps the pipes open (exec.Cmd.WaitDelay), so nothing waiting on
// them can hang plinth.
//
// Tail keeps the last lines a plugin wrote, bounded in bytes, for error
// messages.
//
// Neighbours: providers/plinth (plinth:exec:Command) and
// internal/provisioner (local-exec) start their commands with StartChild;
// internal/provider/pulumirpc and internal/provider/mu (through
// internal/provider/grpcplugin) and internal/provider/tfplugin
// (through go-plugin's RunnerFunc) start their plugins here.
package proc
