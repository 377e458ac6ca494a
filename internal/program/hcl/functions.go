package hcl

import (
	"time"

	"github.com/zclconf/go-cty/cty/function"

	"github.com/plinth-iac/plinth/internal/program/hcl/funcs"
)

// functions is the table of Terraform's built-in functions for a module
// whose directory is baseDir; plantimestamp() is the moment the run began.
// In a plan (a preview) the impure functions' results are unknown.
func functions(baseDir string, began time.Time, planning bool) map[string]function.Function {
	opts := []funcs.Option{funcs.WithPlanTimestamp(began.UTC().Format(time.RFC3339))}
	if planning {
		opts = append(opts, funcs.Planning())
	}
	return funcs.Table(baseDir, opts...)
}
