// Many resources from a Go program: the count (config key count,
// default 2000) of random pets, for the front-end benchmark.
package main

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"plinth.test/pulumigo/plinth"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		count := config.New(ctx, "").GetInt("count")
		if count == 0 {
			count = 2000
		}
		for i := range count {
			if _, err := plinth.NewPet(ctx, fmt.Sprintf("r%d", i), plinth.PetArgs{Length: pulumi.Int(2)}); err != nil {
				return err
			}
		}
		return nil
	})
}
