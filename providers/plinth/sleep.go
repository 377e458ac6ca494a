package plinth

import (
	"context"
	"fmt"
	"time"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// SleepArgs are the inputs of plinth:time:Sleep.
type SleepArgs struct {
	CreateDuration  string                    `plinth:"createDuration,optional" doc:"How long creation waits, as a Go duration such as \"2s\" or \"1m30s\"."`
	DestroyDuration string                    `plinth:"destroyDuration,optional" doc:"How long deletion waits, as a Go duration."`
	Triggers        map[string]resource.Value `plinth:"triggers,optional,replaceOnChanges" doc:"Arbitrary values; changing any of them replaces the resource (so it waits again)."`
}

// SleepState are the outputs of plinth:time:Sleep.
type SleepState struct {
	SleepArgs
}

// Sleep is plinth:time:Sleep: it waits on creation and deletion and does
// nothing else. A cancelled operation stops the wait at once.
type Sleep struct{}

// Check requires valid, non-negative durations.
func (Sleep) Check(_ context.Context, op provider.CheckOp[SleepArgs]) (provider.CheckResult[SleepArgs], error) {
	var fs []provider.CheckFailure
	for _, d := range []struct{ name, value string }{
		{"createDuration", op.News.CreateDuration}, {"destroyDuration", op.News.DestroyDuration},
	} {
		if _, err := parseDuration(d.value); err != nil && !unknown(op.Unknowns, d.name) {
			fs = append(fs, provider.CheckFailure{Property: d.name, Reason: err.Error()})
		}
	}
	return provider.CheckResult[SleepArgs]{Inputs: op.News, Failures: fs}, nil
}

func parseDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration: write a non-negative Go duration such as \"30s\", \"1m30s\" or \"250ms\"", s)
	}
	return d, nil
}

// Create waits createDuration.
func (Sleep) Create(ctx context.Context, op provider.CreateOp[SleepArgs]) (provider.CreateResult[SleepState], error) {
	if err := wait(ctx, op.Inputs.CreateDuration); err != nil {
		return provider.CreateResult[SleepState]{}, err
	}
	return provider.CreateResult[SleepState]{ID: randomID(), Outputs: SleepState{op.Inputs}}, nil
}

// Update takes new durations without waiting.
func (Sleep) Update(_ context.Context, op provider.UpdateOp[SleepArgs, SleepState]) (provider.UpdateResult[SleepState], error) {
	return provider.UpdateResult[SleepState]{Outputs: SleepState{op.News}}, nil
}

// Delete waits destroyDuration.
func (Sleep) Delete(ctx context.Context, op provider.DeleteOp[SleepArgs, SleepState]) error {
	return wait(ctx, op.Inputs.DestroyDuration)
}

func wait(ctx context.Context, duration string) error {
	d, err := parseDuration(duration)
	if err != nil || d == 0 {
		return err
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting %s was interrupted: %w", d, context.Cause(ctx))
	}
}
