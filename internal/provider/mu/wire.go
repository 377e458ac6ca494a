package mu

import (
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// The protocol's property bag is a plain google.protobuf.Struct: secrets
// are sent as their values, resource references as their IDs, and nothing
// it sends back may be unknown.
var (
	sendOptions    = pulumiwire.Options{}
	receiveOptions = pulumiwire.Options{RejectUnknowns: true}
)

// toStruct encodes a property bag, an empty one for nil.
func toStruct(o resource.Object) (*structpb.Struct, error) {
	if o == nil {
		o = resource.Object{}
	}
	return pulumiwire.EncodeObject(o, sendOptions)
}

// fromStruct decodes a property bag the plugin sent.
func fromStruct(s *structpb.Struct) (resource.Object, error) {
	if s == nil {
		return resource.Object{}, nil
	}
	return pulumiwire.DecodeObject(s, receiveOptions)
}

// changed is what an Update sends: the properties of news that differ from
// olds, and those olds had that news lacks as null, since the protocol
// updates only the properties listed.
func changed(olds, news resource.Object) resource.Object {
	out := resource.Object{}
	for k, v := range news {
		if old, ok := olds[k]; !ok || !old.Equal(v) {
			out[k] = v
		}
	}
	for k := range olds {
		if _, ok := news[k]; !ok {
			out[k] = resource.Null()
		}
	}
	return out
}

// overlay returns base with the properties of delta set (a null one
// removed), as a property bag looks after delta was applied to it.
func overlay(base, delta resource.Object) resource.Object {
	out := base.Copy()
	if out == nil {
		out = resource.Object{}
	}
	for k, v := range delta {
		if v.IsNull() {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}
