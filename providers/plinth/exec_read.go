package plinth

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// Read refreshes a command unchanged: what it did cannot be looked at
// again. It cannot be imported: its scripts exist only in the program,
// and nothing outside plinth records that they ran.
func (Command) Read(_ context.Context, op provider.ReadOp[CommandArgs, CommandState]) (provider.ReadResult[CommandArgs, CommandState], error) {
	if op.Import {
		return provider.ReadResult[CommandArgs, CommandState]{}, fmt.Errorf("a command (ID %q) cannot be imported: its scripts exist only in the program and nothing records that they ran; declare the resource and let it run create instead", op.ID)
	}
	return provider.ReadResult[CommandArgs, CommandState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
}
