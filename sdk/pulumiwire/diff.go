package pulumiwire

import (
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// ToPlinthPath converts a path a peer sent into plinth's text form
// (resource.PropertyPath.String). A path that does not parse is kept as
// sent, so nothing a provider says is lost.
func ToPlinthPath(s string) string {
	p, err := ParsePath(s)
	if err != nil || len(p) == 0 {
		return s
	}
	return p.String()
}

// FromPlinthPath converts a path in plinth's text form into the form Pulumi
// peers read. A path that does not parse is sent as it is.
func FromPlinthPath(s string) string {
	p, err := resource.ParsePath(s)
	if err != nil {
		return s
	}
	return FormatPath(p)
}

// EncodeDetailedDiff converts a detailed diff to its wire form.
func EncodeDetailedDiff(d resource.DetailedDiff) map[string]*pulumirpc.PropertyDiff {
	if d == nil {
		return nil
	}
	out := make(map[string]*pulumirpc.PropertyDiff, len(d))
	for path, pd := range d {
		out[FromPlinthPath(path)] = &pulumirpc.PropertyDiff{Kind: diffKind(pd), InputDiff: pd.InputDiff}
	}
	return out
}

func diffKind(pd resource.PropertyDiff) pulumirpc.PropertyDiff_Kind {
	switch pd.Kind {
	case resource.DiffAdd:
		if pd.Replace {
			return pulumirpc.PropertyDiff_ADD_REPLACE
		}
		return pulumirpc.PropertyDiff_ADD
	case resource.DiffDelete:
		if pd.Replace {
			return pulumirpc.PropertyDiff_DELETE_REPLACE
		}
		return pulumirpc.PropertyDiff_DELETE
	}
	if pd.Replace {
		return pulumirpc.PropertyDiff_UPDATE_REPLACE
	}
	return pulumirpc.PropertyDiff_UPDATE
}

// DecodeDetailedDiff converts a wire detailed diff. Kinds this version does
// not know are taken as updates, the safe reading.
func DecodeDetailedDiff(d map[string]*pulumirpc.PropertyDiff) resource.DetailedDiff {
	out := make(resource.DetailedDiff, len(d))
	for path, pd := range d {
		out[ToPlinthPath(path)] = decodeDiffKind(pd)
	}
	return out
}

func decodeDiffKind(pd *pulumirpc.PropertyDiff) resource.PropertyDiff {
	out := resource.PropertyDiff{InputDiff: pd.GetInputDiff()}
	switch pd.GetKind() {
	case pulumirpc.PropertyDiff_ADD:
		out.Kind = resource.DiffAdd
	case pulumirpc.PropertyDiff_ADD_REPLACE:
		out.Kind, out.Replace = resource.DiffAdd, true
	case pulumirpc.PropertyDiff_DELETE:
		out.Kind = resource.DiffDelete
	case pulumirpc.PropertyDiff_DELETE_REPLACE:
		out.Kind, out.Replace = resource.DiffDelete, true
	case pulumirpc.PropertyDiff_UPDATE_REPLACE:
		out.Kind, out.Replace = resource.DiffUpdate, true
	default:
		out.Kind = resource.DiffUpdate
	}
	return out
}

// CheckFailure is one validation failure: the property path, in plinth's
// text form, and why. It has the fields of provider.CheckFailure, so the
// two convert into each other.
type CheckFailure struct {
	Property string
	Reason   string
}

// EncodeCheckFailures converts failures to their wire form.
func EncodeCheckFailures(fs []CheckFailure) []*pulumirpc.CheckFailure {
	out := make([]*pulumirpc.CheckFailure, len(fs))
	for i, f := range fs {
		prop := f.Property
		if prop != "" {
			prop = FromPlinthPath(prop)
		}
		out[i] = &pulumirpc.CheckFailure{Property: prop, Reason: f.Reason}
	}
	return out
}

// DecodeCheckFailures converts wire failures.
func DecodeCheckFailures(fs []*pulumirpc.CheckFailure) []CheckFailure {
	if len(fs) == 0 {
		return nil
	}
	out := make([]CheckFailure, len(fs))
	for i, f := range fs {
		out[i] = CheckFailure{Property: ToPlinthPath(f.GetProperty()), Reason: f.GetReason()}
	}
	return out
}

// EncodePaths converts paths in plinth's text form (ignoreChanges, say).
func EncodePaths(paths []string) []string {
	return mapStrings(paths, FromPlinthPath)
}

// DecodePaths converts paths a peer sent into plinth's text form.
func DecodePaths(paths []string) []string {
	return mapStrings(paths, ToPlinthPath)
}

func mapStrings(in []string, f func(string) string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}
