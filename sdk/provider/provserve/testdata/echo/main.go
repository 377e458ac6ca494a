// Command echo is a provisioner plugin written with plinth's SDK, for
// provserve's tests: it prints its message, optionally sleeps (until
// stopped) and optionally fails.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/provider/provserve"
)

func main() {
	provserve.Serve(provider.Provisioner{
		Name: "echo",
		Config: map[string]provider.Property{
			"message": {Type: provider.Type{Kind: provider.TypeString}, Required: true},
			"sleep":   {Type: provider.Type{Kind: provider.TypeNumber}},
			"fail":    {Type: provider.Type{Kind: provider.TypeBool}},
		},
		Provision: func(ctx context.Context, req provider.ProvisionRequest) error {
			req.Output("hello " + req.Config["message"].Str())
			req.Output("second line")
			if s := req.Config["sleep"]; !s.IsNull() {
				select {
				case <-ctx.Done():
					return fmt.Errorf("stopped while sleeping")
				case <-time.After(time.Duration(s.Number() * float64(time.Second))):
				}
			}
			if req.Config["fail"].Bool() {
				return fmt.Errorf("failing as asked")
			}
			return nil
		},
	})
}
