// Writes its pid to $IDLE_PIDFILE, then waits a minute talking to no
// one, then registers nothing: a program that has not yet noticed that
// its engine is gone.
package main

import (
	"os"
	"strconv"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		if err := os.WriteFile(os.Getenv("IDLE_PIDFILE"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			return err
		}
		time.Sleep(time.Minute)
		return nil
	})
}
