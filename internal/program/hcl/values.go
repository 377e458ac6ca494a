package hcl

import (
	"github.com/plinth-iac/plinth/internal/program/hcl/funcs"

	"math"
	"math/big"

	"github.com/zclconf/go-cty/cty"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// sensitive is the cty mark a secret value carries, as in Terraform.
const sensitive = funcs.Sensitive

// toCty turns an engine value into a cty value of its natural type:
// arrays are tuples, objects are objects, secrets are marked sensitive and
// unknowns are of dynamic type.
func toCty(v resource.Value) cty.Value {
	switch v.Kind() {
	case resource.NullKind:
		return cty.NullVal(cty.DynamicPseudoType)
	case resource.UnknownKind:
		return cty.DynamicVal
	case resource.BoolKind:
		return cty.BoolVal(v.Bool())
	case resource.NumberKind:
		return cty.NumberVal(v.BigNumber())
	case resource.StringKind:
		return cty.StringVal(v.Str())
	case resource.ArrayKind:
		elems := make([]cty.Value, len(v.Array()))
		for i, e := range v.Array() {
			elems[i] = toCty(e)
		}
		return cty.TupleVal(elems)
	case resource.ObjectKind:
		return objectToCty(v.Object())
	case resource.SecretKind:
		return toCty(v.SecretElement()).Mark(sensitive)
	}
	return cty.StringVal(v.String())
}

func objectToCty(o resource.Object) cty.Value {
	attrs := make(map[string]cty.Value, len(o))
	for k, e := range o {
		attrs[k] = toCty(e)
	}
	return cty.ObjectVal(attrs)
}

// fromCty turns a cty value into an engine value: marked values become
// secrets, unknown ones unknown, collections arrays and objects.
func fromCty(v cty.Value) resource.Value {
	if v.IsMarked() {
		inner, marks := v.Unmark()
		out := fromCty(inner)
		if _, ok := marks[sensitive]; ok {
			return resource.MakeSecret(out)
		}
		return out
	}
	switch {
	case !v.IsKnown():
		return resource.Unknown()
	case v.IsNull():
		return resource.Null()
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return resource.NewString(v.AsString())
	case ty == cty.Bool:
		return resource.NewBool(v.True())
	case ty == cty.Number:
		return numberFromCty(v.AsBigFloat())
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		var elems []resource.Value
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, fromCty(e))
		}
		return resource.NewArray(elems...)
	case ty.IsMapType() || ty.IsObjectType():
		o := resource.Object{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			o[k.AsString()] = fromCty(e)
		}
		return resource.NewObject(o)
	}
	return resource.Unknown()
}

// numberFromCty turns a cty number into an engine number. A number a
// double cannot hold keeps its digits in positional notation, as
// terraform writes numbers in its state and `terraform output -json`:
// 12345678901234567890, not 1.234567890123456789e+19.
//
// An integer a double holds exactly (within ±2^53, where every integer is
// a double and its shortest decimal is its digits) is made directly: the
// count indexes and small numbers of a configuration are nearly all such,
// and writing a 512-bit float as text and parsing it back cost a
// no-change plan of 2,000 resources about a tenth of plinth's CPU.
func numberFromCty(f *big.Float) resource.Value {
	if f.IsInt() {
		if x, acc := f.Float64(); acc == big.Exact && math.Abs(x) <= 1<<53 && !(x == 0 && f.Signbit()) {
			return resource.NewNumber(x)
		}
	}
	return numberFromText(f)
}

// numberFromText is numberFromCty by way of the number's decimal text.
func numberFromText(f *big.Float) resource.Value {
	if n, err := resource.ParseNumber(f.Text('f', -1)); err == nil {
		return n
	}
	x, _ := f.Float64()
	return resource.NewNumber(x)
}
