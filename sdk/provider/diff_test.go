package provider_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestDefaultDiff(t *testing.T) {
	base := map[string]any{"name": "rex", "size": 3, "tags": []any{map[string]any{"key": "a", "pinned": false}}}
	with := func(changes map[string]any) resource.Object {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range changes {
			m[k] = v
		}
		return obj(m)
	}
	state := func(inputs resource.Object) resource.Object {
		out := inputs.Copy()
		out["serial"], out["checksum"] = str("s"), secret(str("c"))
		return out
	}
	upd := func(input bool) resource.PropertyDiff {
		return resource.PropertyDiff{Kind: resource.DiffUpdate, InputDiff: input}
	}
	tests := map[string]struct {
		typ        string
		oldInputs  resource.Object
		oldOutputs resource.Object
		news       resource.Object
		ignore     []string
		want       provider.DiffResponse
	}{
		"no change": {
			typ: fullType, oldInputs: with(nil), oldOutputs: state(with(nil)), news: with(nil),
			want: provider.DiffResponse{Changes: provider.DiffNone, DetailedDiff: resource.DetailedDiff{}},
		},
		"update in place": {
			typ: fullType, oldInputs: with(nil), oldOutputs: state(with(nil)), news: with(map[string]any{"size": 4}),
			want: provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"size"},
				DetailedDiff: resource.DetailedDiff{"size": upd(false)}},
		},
		"replaceOnChanges at the top": {
			typ: fullType, oldInputs: with(nil), oldOutputs: state(with(nil)), news: with(map[string]any{"name": "max"}),
			want: provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"name"}, ReplaceKeys: []string{"name"},
				DetailedDiff: resource.DetailedDiff{"name": {Kind: resource.DiffUpdate, Replace: true}}},
		},
		"replaceOnChanges nested in an array": {
			typ: fullType, oldInputs: with(nil), oldOutputs: state(with(nil)),
			news: with(map[string]any{"tags": []any{map[string]any{"key": "a", "pinned": true}}}),
			want: provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"tags"}, ReplaceKeys: []string{"tags"},
				DetailedDiff: resource.DetailedDiff{"tags[0].pinned": {Kind: resource.DiffUpdate, Replace: true}}},
		},
		"no Updater: every change replaces": {
			typ: basicType, oldInputs: with(nil), oldOutputs: state(with(nil)), news: with(map[string]any{"size": 4}),
			want: provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"size"}, ReplaceKeys: []string{"size"},
				DetailedDiff: resource.DetailedDiff{"size": {Kind: resource.DiffUpdate, Replace: true}}},
		},
		"drift in the state is a change": {
			typ: fullType, oldInputs: with(nil), oldOutputs: state(with(map[string]any{"size": 9})), news: with(nil),
			want: provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"size"},
				DetailedDiff: resource.DetailedDiff{"size": upd(false)}},
		},
		"secretness alone is no change": {
			typ: fullType, oldInputs: with(nil), oldOutputs: state(with(nil)),
			news: with(map[string]any{"size": secret(num(3))}),
			want: provider.DiffResponse{Changes: provider.DiffNone, DetailedDiff: resource.DetailedDiff{}},
		},
		"unknown is an update": {
			typ: fullType, oldInputs: with(nil), oldOutputs: state(with(nil)),
			news: with(map[string]any{"size": resource.Unknown()}),
			want: provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"size"},
				DetailedDiff: resource.DetailedDiff{"size": upd(false)}},
		},
		"ignoreChanges": {
			typ: fullType, oldInputs: with(nil), oldOutputs: state(with(nil)),
			news:   with(map[string]any{"name": "max", "size": 5}),
			ignore: []string{"name"},
			want: provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"size"},
				DetailedDiff: resource.DetailedDiff{"size": upd(false)}},
		},
		"added and removed properties": {
			typ: fullType, oldInputs: with(map[string]any{"weight": 1.5}), oldOutputs: state(with(map[string]any{"weight": 1.5})),
			news: with(map[string]any{"labels": map[string]any{"a": "b"}}),
			want: provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"labels", "weight"},
				DetailedDiff: resource.DetailedDiff{"labels": {Kind: resource.DiffAdd}, "weight": {Kind: resource.DiffDelete}}},
		},
	}
	p := configured(t, nil)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var ignore []resource.PropertyPath
			for _, s := range tc.ignore {
				ignore = append(ignore, resource.MustParsePath(s))
			}
			urn := resource.NewURN("dev", "proj", "", tc.typ, "a")
			got, err := p.Diff(context.Background(), provider.DiffRequest{URN: urn, ID: "id", OldInputs: tc.oldInputs,
				OldOutputs: tc.oldOutputs, News: tc.news, IgnoreChanges: ignore})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("diff (-want +got):\n%s", d)
			}
		})
	}
}

func TestDiffComparesInputsWhenOutputsLackTheProperty(t *testing.T) {
	p := configured(t, nil)
	got, err := p.Diff(context.Background(), provider.DiffRequest{URN: fullURN("a"), ID: "id",
		OldInputs: obj(map[string]any{"name": "rex", "size": 3}), News: obj(map[string]any{"name": "rex", "size": 4})})
	if err != nil {
		t.Fatal(err)
	}
	want := resource.DetailedDiff{"size": {Kind: resource.DiffUpdate, InputDiff: true}}
	if d := cmp.Diff(want, got.DetailedDiff); d != "" {
		t.Errorf("diff (-want +got):\n%s", d)
	}
}

func TestDifferOverridesAndSeesDefault(t *testing.T) {
	var seen provider.DiffOp[toyArgs, toyState]
	full := &fullToy{DiffF: func(_ context.Context, op provider.DiffOp[toyArgs, toyState]) (provider.DiffResult, error) {
		seen = op
		dd := resource.DetailedDiff{}
		for p, d := range op.Default {
			d.Replace = true
			dd[p] = d
		}
		dd["serial"] = resource.PropertyDiff{Kind: resource.DiffUpdate}
		return provider.DiffResult{DetailedDiff: dd, DeleteBeforeReplace: true}, nil
	}}
	p := configured(t, full)
	olds := obj(map[string]any{"name": "rex", "size": 3, "password": "pw"})
	got, err := p.Diff(context.Background(), provider.DiffRequest{URN: fullURN("a"), ID: "id",
		OldInputs: olds, OldOutputs: olds, News: obj(map[string]any{"name": "rex", "size": 4, "password": "pw"}),
		IgnoreChanges: []resource.PropertyPath{resource.MustParsePath("serial")}})
	if err != nil {
		t.Fatal(err)
	}
	want := provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"size"}, ReplaceKeys: []string{"size"},
		DetailedDiff:        resource.DetailedDiff{"size": {Kind: resource.DiffUpdate, Replace: true}},
		DeleteBeforeReplace: true}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("diff (-want +got):\n%s", d)
	}
	if seen.OldInputs.Password != "pw" || seen.News.Size != 4 || len(seen.Default) != 1 {
		t.Errorf("Differ saw %+v", seen)
	}
}

func TestDiffConfig(t *testing.T) {
	p := newToys(t, nil)
	got, err := p.DiffConfig(context.Background(), provider.DiffRequest{
		OldInputs: obj(map[string]any{"greeting": "hi", "region": "eu", "version": "1"}),
		News:      obj(map[string]any{"greeting": "hey", "region": "us", "version": "2"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{"greeting", "region"}, ReplaceKeys: []string{"region"},
		DetailedDiff: resource.DetailedDiff{
			"greeting": {Kind: resource.DiffUpdate, InputDiff: true},
			"region":   {Kind: resource.DiffUpdate, InputDiff: true, Replace: true},
		}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("diff (-want +got):\n%s", d)
	}
}
