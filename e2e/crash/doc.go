// Package crash holds the crash harness: end-to-end tests that run the
// plinth binary against a Pulumi-protocol test plugin
// (internal/pulumi-resource-crash, written with sdk/provider) whose
// resources live in a ledger on disk, and kill things with SIGKILL at
// random moments.
//
// TestProviderKillsLoseNothing kills the provider process in the middle of
// up and destroy, at least 40 times. After each kill it plays the user:
// every object the ledger holds that the state does not record must be a
// pending create (nothing silently dropped), and it resolves each pending
// create from the ledger with `plinth state pending --import` or
// `--clear`, then runs the command again to completion and requires ledger
// and state to agree exactly (nothing lost, nothing duplicated, nothing
// orphaned). The last destroy must leave the ledger empty.
//
// TestPlinthKillsLeaveNoProvider kills plinth itself mid-up and requires
// every provider process it started to exit within 5 seconds, then
// recovers the stack the same way.
//
// TestPlinthKillStopsItsCommands and TestPlinthKillsStopCommands
// (children_test.go) kill plinth while it runs commands for the user:
// plinth:exec:Command creates (in process, and in the provider plugin
// pulumi-resource-plinth) and terraform_data local-exec provisioners
// whose shells, and subshells, write an effects file after a sleep.
// After each kill nothing is written once plinth is dead, no process of
// a command's group is left, the pending creates whose effect is absent
// are cleared ("it was not made"), and the next up completes every
// command. TestInterruptStopsCommands stops them with Ctrl-C instead:
// they get SIGTERM, and nothing of them is left.
//
// TestPlinthKillsDynamicProvider (dynamic_test.go) does the same for a
// Pulumi JavaScript program (testdata/dynamic) whose resources a dynamic
// provider serves: plinth runs the program with node and hosts the
// provider, node again on the program's own @pulumi/pulumi, whose create,
// update and delete write the ledger between pauses. It kills plinth at
// random moments of the up that creates them, of an edit's up and of
// destroy, each while a call has begun and not yet made its effect, and
// requires every node process of the run gone within 5 s, nothing
// written to the ledger once plinth is dead (so a pending create cleared
// as "not made" was not), the kills' uncertainty recorded as above, and
// the next command to complete with ledger and state equal. It needs
// node and npm (nodetest installs node_modules once), and skips without
// them.
//
// The package has no code of its own; the tests run on Linux only, since
// they find processes through /proc.
package crash
