package pulumirpc

import (
	"fmt"

	pb "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/plinth-iac/plinth/sdk/pulumiwire"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// A request's objects (inputs, state) are written straight to the wire by
// pulumiwire.AppendObject and set as the request's unknown fields, under
// the numbers of its google.protobuf.Struct fields, rather than built as
// Structs for protobuf to measure and marshal by reflection: that was
// most of the client's work per call. Protobuf writes unknown fields as
// they are, and the plugin reads them as the fields they number.

// Numbers of the requests' Struct fields, looked up by name in the
// generated descriptors.
var (
	checkOlds       = structNumber(&pb.CheckRequest{}, "olds")
	checkNews       = structNumber(&pb.CheckRequest{}, "news")
	diffOlds        = structNumber(&pb.DiffRequest{}, "olds")
	diffNews        = structNumber(&pb.DiffRequest{}, "news")
	diffOldInputs   = structNumber(&pb.DiffRequest{}, "old_inputs")
	createProps     = structNumber(&pb.CreateRequest{}, "properties")
	readProps       = structNumber(&pb.ReadRequest{}, "properties")
	readInputs      = structNumber(&pb.ReadRequest{}, "inputs")
	updateOlds      = structNumber(&pb.UpdateRequest{}, "olds")
	updateNews      = structNumber(&pb.UpdateRequest{}, "news")
	updateOldInputs = structNumber(&pb.UpdateRequest{}, "old_inputs")
	deleteProps     = structNumber(&pb.DeleteRequest{}, "properties")
	deleteOldInputs = structNumber(&pb.DeleteRequest{}, "old_inputs")
	invokeArgs      = structNumber(&pb.InvokeRequest{}, "args")
)

// structNumber returns the number of m's google.protobuf.Struct field
// name; it panics if m has none, which a change of the protocol's
// generated code would show at start-up.
func structNumber(m proto.Message, name protoreflect.Name) protowire.Number {
	f := m.ProtoReflect().Descriptor().Fields().ByName(name)
	if f == nil || f.Message() == nil || f.Message().FullName() != "google.protobuf.Struct" || f.IsList() {
		panic(fmt.Sprintf("pulumirpc: %s has no google.protobuf.Struct field %q", m.ProtoReflect().Descriptor().FullName(), name))
	}
	return f.Number()
}

// structs is a request's Struct fields, encoded, to set as its unknown
// fields. A nil object is sent as an empty one, as peers expect of olds.
type structs []byte

// add appends field num holding o.
func (s structs) add(num protowire.Number, o resource.Object, opts pulumiwire.Options) (structs, error) {
	if s == nil {
		s = make(structs, 0, 256)
	}
	return pulumiwire.AppendObjectField(s, num, o, opts)
}

// set sets them as m's unknown fields; m's own Struct fields must be nil.
func (s structs) set(m proto.Message) { m.ProtoReflect().SetUnknown(protoreflect.RawFields(s)) }
