package hcl

import (
	"time"

	"github.com/zclconf/go-cty/cty/function"

	"github.com/plinth-iac/plinth/internal/program/hcl/funcs"
)

// functions is the table of Terraform's built-in functions for a module
// whose directory is baseDir; plantimestamp() is the moment the run began.
func functions(baseDir string, began time.Time) map[string]function.Function {
	return funcs.Table(baseDir, funcs.WithPlanTimestamp(began.UTC().Format(time.RFC3339)))
}
