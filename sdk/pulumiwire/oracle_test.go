package pulumiwire

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	prsc "github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"
	"pgregory.net/rapid"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// The Pulumi SDK's own marshaller is the oracle: for any value, plinth's
// encoding must be the bytes Pulumi would send, and plinth's decoding of
// any wire value must mean what Pulumi's decoding means.

func toPulumiMap(o resource.Object) prsc.PropertyMap {
	m := prsc.PropertyMap{}
	for k, v := range o {
		m[prsc.PropertyKey(k)] = toPulumi(v)
	}
	return m
}

func toPulumi(v resource.Value) prsc.PropertyValue {
	switch v.Kind() {
	case resource.BoolKind:
		return prsc.NewProperty(v.Bool())
	case resource.NumberKind:
		return prsc.NewProperty(v.Number())
	case resource.StringKind:
		return prsc.NewProperty(v.Str())
	case resource.ArrayKind:
		elems := []prsc.PropertyValue{}
		for _, e := range v.Array() {
			elems = append(elems, toPulumi(e))
		}
		return prsc.NewProperty(elems)
	case resource.ObjectKind:
		return prsc.NewProperty(toPulumiMap(v.Object()))
	case resource.AssetKind:
		return prsc.NewProperty(toPulumiAsset(v.Asset()))
	case resource.ArchiveKind:
		return prsc.NewProperty(toPulumiArchive(v.Archive()))
	case resource.ReferenceKind:
		return prsc.NewProperty(toPulumiRef(v.Reference()))
	case resource.UnknownKind:
		return prsc.MakeComputed(prsc.NewProperty(""))
	case resource.SecretKind:
		return prsc.MakeSecret(toPulumi(v.SecretElement()))
	}
	return prsc.NewNullProperty()
}

func toPulumiAsset(a *resource.Asset) *asset.Asset {
	return &asset.Asset{Sig: asset.AssetSig, Hash: a.Hash, Text: a.Text, Path: a.Path, URI: a.URI}
}

func toPulumiArchive(a *resource.Archive) *archive.Archive {
	out := &archive.Archive{Sig: archive.ArchiveSig, Hash: a.Hash, Path: a.Path, URI: a.URI}
	if a.Assets != nil {
		out.Assets = map[string]any{}
		for k, m := range a.Assets {
			if m.Kind() == resource.AssetKind {
				out.Assets[k] = toPulumiAsset(m.Asset())
			} else {
				out.Assets[k] = toPulumiArchive(m.Archive())
			}
		}
	}
	return out
}

func toPulumiRef(r resource.Reference) prsc.ResourceReference {
	out := prsc.ResourceReference{URN: prsc.URN(r.URN), PackageVersion: r.PackageVersion}
	if r.ID != nil {
		out.ID = toPulumi(*r.ID)
	}
	return out
}

func fromPulumiMap(m prsc.PropertyMap) resource.Object {
	o := resource.Object{}
	for k, v := range m {
		o[string(k)] = fromPulumi(v)
	}
	return o
}

func fromPulumi(v prsc.PropertyValue) resource.Value {
	switch {
	case v.IsBool():
		return resource.NewBool(v.BoolValue())
	case v.IsNumber():
		return resource.NewNumber(v.NumberValue())
	case v.IsString():
		return resource.NewString(v.StringValue())
	case v.IsArray():
		elems := []resource.Value{}
		for _, e := range v.ArrayValue() {
			elems = append(elems, fromPulumi(e))
		}
		return resource.NewArray(elems...)
	case v.IsObject():
		return resource.NewObject(fromPulumiMap(v.ObjectValue()))
	case v.IsAsset():
		return resource.NewAsset(fromPulumiAsset(v.AssetValue()))
	case v.IsArchive():
		return resource.NewArchive(fromPulumiArchive(v.ArchiveValue()))
	case v.IsResourceReference():
		return resource.NewReference(fromPulumiRef(v.ResourceReferenceValue()))
	case v.IsComputed():
		return resource.Unknown()
	case v.IsOutput():
		return fromPulumiOutput(v.OutputValue())
	case v.IsSecret():
		return resource.MakeSecret(fromPulumi(v.SecretValue().Element))
	}
	return resource.Null()
}

func fromPulumiOutput(o prsc.Output) resource.Value {
	v := resource.Unknown()
	if o.Known {
		v = fromPulumi(o.Element)
	}
	if o.Secret {
		v = resource.MakeSecret(v)
	}
	return v
}

func fromPulumiAsset(a *asset.Asset) *resource.Asset {
	return &resource.Asset{Hash: a.Hash, Text: a.Text, Path: a.Path, URI: a.URI}
}

func fromPulumiArchive(a *archive.Archive) *resource.Archive {
	out := &resource.Archive{Hash: a.Hash, Path: a.Path, URI: a.URI}
	if a.Assets != nil {
		out.Assets = map[string]resource.Value{}
		for k, m := range a.Assets {
			switch m := m.(type) {
			case *asset.Asset:
				out.Assets[k] = resource.NewAsset(fromPulumiAsset(m))
			case *archive.Archive:
				out.Assets[k] = resource.NewArchive(fromPulumiArchive(m))
			}
		}
	}
	return out
}

func fromPulumiRef(r prsc.ResourceReference) resource.Reference {
	out := resource.Reference{URN: resource.URN(r.URN), PackageVersion: r.PackageVersion}
	if id, ok := r.IDString(); ok {
		v := resource.NewString(id)
		if r.ID.IsComputed() || id == "" {
			v = resource.Unknown()
		}
		out.ID = &v
	}
	return out
}

// pulumiOptions are the Pulumi marshal options that mean the same as opts.
func pulumiOptions(opts Options) plugin.MarshalOptions {
	return plugin.MarshalOptions{
		KeepUnknowns:          true,
		RejectUnknowns:        opts.RejectUnknowns,
		KeepSecrets:           opts.Secrets,
		KeepResources:         opts.Resources,
		KeepOutputValues:      opts.Outputs,
		UpgradeToOutputValues: opts.Outputs,
		KeepByteString:        opts.ByteStrings,
		PropagateNil:          true,
	}
}

func drawOptions(t *rapid.T) Options {
	return Options{
		Secrets:        rapid.Bool().Draw(t, "secrets"),
		Resources:      rapid.Bool().Draw(t, "resources"),
		Outputs:        rapid.Bool().Draw(t, "outputs"),
		ByteStrings:    rapid.Bool().Draw(t, "bytestrings"),
		RejectUnknowns: rapid.IntRange(0, 9).Draw(t, "reject") == 0,
	}
}

func TestEncodeMatchesPulumi(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genObject(true).Draw(t, "object")
		opts := drawOptions(t)
		got, gotErr := EncodeObject(o, opts)
		want, wantErr := plugin.MarshalProperties(toPulumiMap(o), pulumiOptions(opts))
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("errors differ: plinth %v, pulumi %v", gotErr, wantErr)
		}
		if gotErr != nil {
			return
		}
		if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
			t.Fatalf("encoding differs from Pulumi's (-pulumi +plinth):\n%s", diff)
		}
	})
}

// TestDecodeMatchesPulumi decodes what Pulumi's marshaller sends, with
// every option, including output values, and compares meanings.
func TestDecodeMatchesPulumi(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genObject(true).Draw(t, "object")
		sendOpts := drawOptions(t)
		sendOpts.RejectUnknowns = false
		wire, err := plugin.MarshalProperties(toPulumiMap(o), pulumiOptions(sendOpts))
		if err != nil {
			t.Skip("not encodable:", err)
		}
		checkDecodeAgainstPulumi(t, wire, drawOptions(t))
	})
}

// TestDecodeWireMatchesPulumi decodes hand-drawn wire values, including
// forms only peers produce (typed sentinels, output values with
// dependencies, references with names and types, empty IDs).
func TestDecodeWireMatchesPulumi(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		wire := genWireStruct().Draw(t, "wire")
		checkDecodeAgainstPulumi(t, wire, drawOptions(t))
	})
}

func checkDecodeAgainstPulumi(t *rapid.T, wire *structpb.Struct, opts Options) {
	popts := pulumiOptions(opts)
	popts.KeepOutputValues, popts.UpgradeToOutputValues = false, false
	got, gotErr := DecodeObject(wire, opts)
	want, wantErr := plugin.UnmarshalProperties(wire, popts)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("errors differ: plinth %v, pulumi %v", gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	if diff := cmp.Diff(canonObject(fromPulumiMap(want)), canonObject(got)); diff != "" {
		t.Fatalf("decoding differs from Pulumi's (-pulumi +plinth):\n%s", diff)
	}
}
