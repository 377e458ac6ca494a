// Package display shows what an operation is doing: one line per step in
// plain text, a live view that redraws the steps in flight on a terminal,
// or newline-delimited JSON for scripts. The text views speak plinth's
// words, terraform's (terraform*.go) or pulumi's (pulumi*.go: pulumi's
// step lines, its resource tree on a terminal, its Outputs and Resources
// blocks, and preview --json as pulumi's one document). It renders property diffs with +,
// ~ and - markers (and +- with the properties that force a replacement),
// masks every secret as [secret] (and, with a Scrubber, removes every
// secret value the operation knows from free text: provider errors,
// plugin logs, diagnostics), hides the engine's default provider
// resources unless asked, and turns errors into diagnostics: a short
// summary and a detail saying what, where and how to fix it, never a Go
// stack trace.
//
// Its neighbours: internal/engine produces the Events it draws and the
// Result it summarises; internal/cli picks a view (plain, live or JSON)
// from the flags and the terminal and feeds it. Errors describe
// themselves through Diagnosable, which the display declares and the
// packages whose errors users see implement at the source (the engine, the
// program, the state, secrets, the plugin finder): the display knows none
// of their error types and reads no URN out of an error's text.
//
// It does not decide anything about the operation, read state or talk to
// providers, and it does not detect terminals: the caller says which view
// it wants and how wide the terminal is.
package display
