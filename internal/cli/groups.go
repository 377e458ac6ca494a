package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// refuseUnknownSubcommands makes every command group under root (stack,
// state, plugin, config, ...) refuse a word it does not know, as the root
// command does. Cobra shows a group's help and exits 0 for `plinth stack
// export`, so `plinth stack export > backup.json` wrote the help text
// and looked like it had worked. With no word, a group still shows its
// help.
func refuseUnknownSubcommands(c *cobra.Command) {
	for _, s := range c.Commands() {
		refuseUnknownSubcommands(s)
	}
	if !c.HasSubCommands() || c.Run != nil || c.RunE != nil {
		return
	}
	c.Args = unknownSubcommand
	c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
}

// unknownSubcommand is the Args check of a command group: any word left
// over is a subcommand that does not exist.
func unknownSubcommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		for i := range s {
			s[i] = strconv.Quote(s[i])
		}
		msg += " (did you mean " + strings.Join(s, " or ") + "?)"
	}
	return fmt.Errorf("%s; its commands are: %s", msg, strings.Join(subcommandNames(c), ", "))
}

func subcommandNames(c *cobra.Command) []string {
	var names []string
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	return names
}
