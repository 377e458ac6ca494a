// Invokes of the provider's functions: readFile of a file the program
// ships and getEnv of a variable that is not set (its default), their
// results used as resources' inputs and outputs.
package main

import (
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// readFileResult is plinth:index:readFile's result.
type readFileResult struct {
	Content string `pulumi:"content"`
	Sha256  string `pulumi:"sha256"`
	Size    int    `pulumi:"size"`
}

// getEnvResult is plinth:index:getEnv's result.
type getEnvResult struct {
	Exists bool   `pulumi:"exists"`
	Value  string `pulumi:"value"`
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		var words readFileResult
		if err := ctx.Invoke("plinth:index:readFile", map[string]any{"path": "words.txt"}, &words); err != nil {
			return err
		}
		var env getEnvResult
		if err := ctx.Invoke("plinth:index:getEnv", map[string]any{
			"name": "PLINTH_CORPUS_NEVER_SET", "default": "fallback",
		}, &env); err != nil {
			return err
		}
		for _, w := range strings.Fields(words.Content) {
			if _, err := newFile(ctx, "word-"+w, pulumi.Map{
				"path":    pulumi.String("out/" + w + ".txt"),
				"content": pulumi.String(w + " (" + env.Value + ")\n"),
			}); err != nil {
				return err
			}
		}
		ctx.Export("words", pulumi.String(words.Content))
		ctx.Export("sha256", pulumi.String(words.Sha256))
		ctx.Export("size", pulumi.Int(words.Size))
		ctx.Export("envExists", pulumi.Bool(env.Exists))
		ctx.Export("envValue", pulumi.String(env.Value))
		return nil
	})
}
