package plinth

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// The resources below live only in state, so a refresh finds them as
// recorded; Read exists for import, which rebuilds the inputs from the ID
// alone. What an ID cannot tell (keepers, triggers, a pet's prefix) is
// left unset: a configuration that sets it plans a change after import.

// Read refreshes a pet unchanged. On import the ID is the name: its words,
// joined by "-", give the length.
func (Pet) Read(_ context.Context, op provider.ReadOp[PetArgs, PetState]) (provider.ReadResult[PetArgs, PetState], error) {
	if !op.Import {
		return provider.ReadResult[PetArgs, PetState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
	}
	if op.ID == "" || strings.Contains(op.ID, "--") || strings.HasPrefix(op.ID, "-") || strings.HasSuffix(op.ID, "-") {
		return provider.ReadResult[PetArgs, PetState]{}, fmt.Errorf("cannot import pet %q: the ID is the pet's name, words joined by \"-\", such as \"witty-otter\"", op.ID)
	}
	in := PetArgs{Length: len(strings.Split(op.ID, "-")), Separator: "-"}
	return provider.ReadResult[PetArgs, PetState]{ID: op.ID, Inputs: in, Outputs: PetState{PetArgs: in, Name: op.ID}}, nil
}

// Read refreshes a string unchanged. On import the ID is the string: its
// length is the length, and every character class is on (the default),
// since a random string need not show each class it was drawn from.
func (String) Read(_ context.Context, op provider.ReadOp[StringArgs, StringState]) (provider.ReadResult[StringArgs, StringState], error) {
	if !op.Import {
		return provider.ReadResult[StringArgs, StringState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
	}
	if op.ID == "" {
		return provider.ReadResult[StringArgs, StringState]{}, fmt.Errorf("cannot import an empty string: the ID is the string itself")
	}
	in := StringArgs{Length: len(op.ID), Special: true, Upper: true, Lower: true, Numeric: true}
	return provider.ReadResult[StringArgs, StringState]{ID: op.ID, Inputs: in, Outputs: StringState{StringArgs: in, Result: op.ID}}, nil
}

// Read refreshes an integer unchanged. On import the ID is
// "result,min,max" or "result,min,max,seed"; a bare "result" imports
// min = max = result.
func (Integer) Read(_ context.Context, op provider.ReadOp[IntegerArgs, IntegerState]) (provider.ReadResult[IntegerArgs, IntegerState], error) {
	if !op.Import {
		return provider.ReadResult[IntegerArgs, IntegerState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
	}
	in, result, err := parseIntegerID(op.ID)
	if err != nil {
		return provider.ReadResult[IntegerArgs, IntegerState]{}, err
	}
	id := strconv.FormatInt(result, 10)
	return provider.ReadResult[IntegerArgs, IntegerState]{ID: id, Inputs: in, Outputs: IntegerState{IntegerArgs: in, Result: result}}, nil
}

func parseIntegerID(id string) (IntegerArgs, int64, error) {
	parts := strings.Split(id, ",")
	bad := fmt.Errorf("cannot import integer %q: write the ID as \"result,min,max\" or \"result,min,max,seed\", such as \"42,1,100\"", id)
	if len(parts) > 4 || len(parts) == 2 {
		return IntegerArgs{}, 0, bad
	}
	nums := make([]int64, 0, 3)
	for _, p := range parts[:min(len(parts), 3)] {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return IntegerArgs{}, 0, bad
		}
		nums = append(nums, n)
	}
	if len(nums) == 1 {
		nums = append(nums, nums[0], nums[0])
	}
	in := IntegerArgs{Min: nums[1], Max: nums[2]}
	if len(parts) == 4 {
		in.Seed = parts[3]
	}
	if nums[0] < in.Min || nums[0] > in.Max {
		return IntegerArgs{}, 0, fmt.Errorf("cannot import integer %q: the result %d is not between min %d and max %d", id, nums[0], in.Min, in.Max)
	}
	return in, nums[0], nil
}

// Read refreshes a sleep unchanged. On import the ID is any identifier
// and nothing else is known: no durations, no triggers.
func (Sleep) Read(_ context.Context, op provider.ReadOp[SleepArgs, SleepState]) (provider.ReadResult[SleepArgs, SleepState], error) {
	if op.ID == "" {
		return provider.ReadResult[SleepArgs, SleepState]{}, fmt.Errorf("cannot import a sleep without an ID")
	}
	return provider.ReadResult[SleepArgs, SleepState]{ID: op.ID, Inputs: op.Inputs, Outputs: op.State}, nil
}
