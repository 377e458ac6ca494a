package provider

import (
	"reflect"
	"time"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// Timeouts is a property type a resource's inputs may hold to let a
// program say how long each operation may take, as Terraform's timeouts
// block does:
//
//	type DBArgs struct {
//		Size     int                `plinth:"size"`
//		Timeouts *provider.Timeouts `plinth:"timeouts,optional"`
//	}
//
// A program then writes timeouts { create = "30m" } in Terraform (a
// block, in both protocols) or timeouts: {create: 30m} in Pulumi YAML. Each value is a Go duration, checked by Check. The SDK
// passes it as the op's Timeout (CreateOp, UpdateOp, DeleteOp) when the
// engine gave none (Pulumi's customTimeouts option wins); the resource
// applies it, usually with context.WithTimeout(ctx, op.Timeout).
type Timeouts struct {
	Create string `plinth:"create,optional" validate:"duration" doc:"How long Create may take, such as \"30m\"."`
	Update string `plinth:"update,optional" validate:"duration" doc:"How long Update may take."`
	Delete string `plinth:"delete,optional" validate:"duration" doc:"How long Delete may take."`
}

var timeoutsType = reflect.TypeFor[Timeouts]()

// timeoutsField returns the name of the inputs' Timeouts property, or "".
func timeoutsField(c *structCodec) string {
	for _, f := range c.fields {
		if isTimeouts(c.t.FieldByIndex(f.index).Type) {
			return f.name()
		}
	}
	return ""
}

// isTimeouts reports whether a field of type t is a Timeouts property.
func isTimeouts(t reflect.Type) bool {
	return t == timeoutsType || (t.Kind() == reflect.Pointer && t.Elem() == timeoutsType)
}

// timeoutOf returns given if set, else the duration the inputs' timeouts
// property gives for the operation op ("create", "update", "delete").
func timeoutOf(given time.Duration, inputs resource.Object, prop, op string) time.Duration {
	if given != 0 || prop == "" {
		return given
	}
	v := inputs[prop].SecretElement()
	if v.Kind() != resource.ObjectKind {
		return 0
	}
	s := v.Object()[op].SecretElement()
	if s.Kind() != resource.StringKind {
		return 0
	}
	d, _ := time.ParseDuration(s.Str())
	return d
}

// timeoutsNeverReplace makes a change of the timeouts property prop an
// update, whatever else the diff says: it changes how long operations may
// take, not the resource.
func timeoutsNeverReplace(dd resource.DetailedDiff, prop string) resource.DetailedDiff {
	for p, d := range dd {
		if topName(p) == prop && d.Replace {
			d.Replace = false
			dd[p] = d
		}
	}
	return dd
}
