package pulumiwire

import (
	"sort"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// OutputDependencies returns, sorted and without repeats, the URNs that the
// output values anywhere in s depend on. Decoding keeps each output's value
// but not its dependencies; a caller that needs them (a Construct or Call
// response, say) asks here.
func OutputDependencies(s *structpb.Struct) ([]resource.URN, error) {
	seen := map[resource.URN]bool{}
	if err := collectDeps(top(), structpb.NewStructValue(s), seen); err != nil {
		return nil, err
	}
	out := make([]resource.URN, 0, len(seen))
	for u := range seen {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

func collectDeps(path at, v *structpb.Value, seen map[resource.URN]bool) error {
	switch k := v.GetKind().(type) {
	case *structpb.Value_ListValue:
		for i, e := range k.ListValue.GetValues() {
			if err := collectDeps(path.index(i), e, seen); err != nil {
				return err
			}
		}
	case *structpb.Value_StructValue:
		fields := k.StructValue.GetFields()
		if sigOf(fields) == OutputSig {
			urns, err := outputDeps(path, fields)
			if err != nil {
				return err
			}
			for _, u := range urns {
				seen[u] = true
			}
		}
		for name, e := range fields {
			if name != SigKey {
				if err := collectDeps(path.key(name), e, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
