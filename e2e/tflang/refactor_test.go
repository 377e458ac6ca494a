package tflang

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The refactoring blocks (moved, import, removed) run by terraform and by
// plinth on the same provider binaries: each step must give the same
// result in both, with nothing replaced.

// tfDir is a configuration directory driven by terraform.
type tfDir struct {
	t   *testing.T
	tf  string
	dir string
	env []string
}

func newTFDir(t *testing.T, tf, src string) *tfDir {
	t.Helper()
	dir := t.TempDir()
	copyFiles(t, src, dir)
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+devOverrides(t, dir), "TF_IN_AUTOMATION=1",
		"TF_INPUT=0", "CHECKPOINT_DISABLE=1", "TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
	d := &tfDir{t: t, tf: tf, dir: dir, env: env}
	d.must("init", "-input=false", "-no-color")
	return d
}

func (d *tfDir) must(args ...string) string {
	d.t.Helper()
	cmd := exec.Command(d.tf, args...)
	cmd.Dir, cmd.Env = d.dir, d.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		d.t.Fatalf("terraform %v: %v\n%s\n%s", args, err, out, stderr.String())
	}
	return string(out)
}

// outputs are terraform's root outputs.
func (d *tfDir) outputs() map[string]any {
	d.t.Helper()
	var raw map[string]struct {
		Value any `json:"value"`
	}
	decodeJSON(d.t, d.must("output", "-json"), &raw)
	out := map[string]any{}
	for k, v := range raw {
		out[k] = v.Value
	}
	return out
}

// writeConfig writes a configuration's main.tf (and nothing else) in dir.
func writeConfig(t *testing.T, dir, main string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFiles(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// configDir is a directory holding one main.tf.
func configDir(t *testing.T, main string) string {
	dir := t.TempDir()
	writeConfig(t, dir, main)
	return dir
}

const movedStep1 = `
resource "random_pet" "a" { count = 2 }
resource "random_pet" "solo" {}
output "pets" { value = concat(random_pet.a[*].id, [random_pet.solo.id]) }
`

const movedStep2 = `
resource "random_pet" "b" { for_each = toset(["x", "y"]) }
resource "random_pet" "solo" { count = 1 }
moved {
  from = random_pet.a[0]
  to   = random_pet.b["x"]
}
moved {
  from = random_pet.a[1]
  to   = random_pet.b["y"]
}
output "pets" { value = concat([random_pet.b["x"].id, random_pet.b["y"].id], [random_pet.solo[0].id]) }
`

// noChangeLine is how terraform ends a plan that changes nothing but
// addresses (plinth says "No changes." and names each move).
const noChangeLine = "0 to add, 0 to change, 0 to destroy"

// TestMovedBlock renames instances (count to for_each keys, with moved
// blocks) and adds count to a resource (terraform's implied move): both
// tools plan no change and keep every random name.
func TestMovedBlock(t *testing.T) {
	needReal(t)
	p := newProject(t, configDir(t, movedStep1))
	p.must("up", "--yes")
	before := p.outputs()
	writeConfig(t, p.dir, movedStep2)
	if r := p.must("preview"); !strings.Contains(r.Stdout, "No changes.") || !strings.Contains(r.Stdout, "nothing is replaced") {
		t.Errorf("plinth's preview of the moves changes something:\n%s", r.Stdout)
	}
	p.must("up", "--yes")
	if diff := cmp.Diff(before, p.outputs()); diff != "" {
		t.Errorf("plinth: the moves changed the pets (-before +after):\n%s", diff)
	}
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("plinth: a preview after the moves is not clean (exit %d):\n%s", r.Code, r.Output())
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	d := newTFDir(t, tf, configDir(t, movedStep1))
	d.must("apply", "-auto-approve", "-no-color")
	tfBefore := d.outputs()
	writeConfig(t, d.dir, movedStep2)
	if out := d.must("plan", "-no-color"); !strings.Contains(out, noChangeLine) {
		t.Errorf("terraform's plan of the moves changes something:\n%s", out)
	}
	d.must("apply", "-auto-approve", "-no-color")
	if diff := cmp.Diff(tfBefore, d.outputs()); diff != "" {
		t.Errorf("terraform: the moves changed the pets (-before +after):\n%s", diff)
	}
}

const importConfig = `
resource "random_id" "one" { byte_length = 4 }
resource "random_id" "each" {
  for_each    = local.ids
  byte_length = 4
}
locals {
  ids = { a = "AAAAAA", b = "_____w" }
}
import {
  to = random_id.one
  id = "p-9hUg"
}
import {
  for_each = local.ids
  to       = random_id.each[each.key]
  id       = each.value
}
output "hex" { value = [random_id.one.hex, random_id.each["a"].hex, random_id.each["b"].hex] }
`

// TestImportBlock imports three random_id objects by ID (two with
// for_each) in both tools; the outputs agree, and a second plan, with
// the import blocks still there, is clean.
func TestImportBlock(t *testing.T) {
	needReal(t)
	p := newProject(t, configDir(t, importConfig))
	if r := p.must("preview"); strings.Contains(r.Stdout, "will be created") {
		t.Errorf("plinth's preview creates instead of importing:\n%s", r.Stdout)
	}
	p.must("up", "--yes")
	got := p.outputs()
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("plinth: a preview after the import is not clean (exit %d):\n%s", r.Code, r.Output())
	}
	want := map[string]any{"hex": []any{"a7ef6152", "00000000", "ffffffff"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plinth outputs (-want +got):\n%s", diff)
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	d := newTFDir(t, tf, configDir(t, importConfig))
	if out := d.must("apply", "-auto-approve", "-no-color"); !strings.Contains(out, "3 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("terraform's apply did not just import:\n%s", out)
	}
	if out := d.must("plan", "-no-color"); !strings.Contains(out, "No changes") {
		t.Errorf("terraform: a plan after the import is not clean:\n%s", out)
	}
	compareOutputs(t, d.outputs(), got)
}

// importUpdateConfig imports a terraform_data whose configuration sets
// an input the imported object does not have, and one it matches.
const importUpdateConfig = `
import {
  to = terraform_data.d
  id = "0f9c5b4e-1d7a-4d0a-9d5c-2f1e3b4a5c6d"
}
resource "terraform_data" "d" {
  input = "hello"
}
import {
  to = terraform_data.same
  id = "5d1c2b3a-0000-4000-8000-000000000001"
}
resource "terraform_data" "same" {}
output "o" { value = terraform_data.d.output }
output "id" { value = terraform_data.d.id }
`

// TestImportThenUpdate imports an object whose configuration differs from
// it, in both tools: each plans one import and one in-place update (not
// a refusal, not a replacement), applies them, and then plans nothing.
// plinth's plan shows the import and the update as terraform's one
// "will be updated in-place" block with "# (imported from ...)", and the
// import without changes as its "will be imported" block, line for line.
func TestImportThenUpdate(t *testing.T) {
	const planLine = "Plan: 2 to import, 0 to add, 1 to change, 0 to destroy."
	p := newProject(t, configDir(t, importUpdateConfig))
	out := p.must("preview", "--color", "never").Stdout
	for _, want := range []string{"terraform_data.d will be updated in-place", `# (imported from "0f9c5b4e-1d7a-4d0a-9d5c-2f1e3b4a5c6d")`, "terraform_data.same will be imported", planLine} {
		if !strings.Contains(out, want) {
			t.Errorf("plinth's preview does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "terraform_data.d will be imported") {
		t.Errorf("plinth's preview shows terraform_data.d's import apart from its update:\n%s", out)
	}
	gotBlocks := planBlocks(out)
	if out := p.must("up", "--yes").Stdout; !strings.Contains(out, "Resources: 2 imported, 0 added, 1 changed, 0 destroyed.") {
		t.Errorf("plinth's up did not import and update:\n%s", out)
	}
	got := p.outputs()
	if r := p.run("preview", "--detailed-exitcode"); r.Code != 0 {
		t.Errorf("plinth: a preview after the import is not clean (exit %d):\n%s", r.Code, r.Output())
	}
	want := map[string]any{"o": "hello", "id": "0f9c5b4e-1d7a-4d0a-9d5c-2f1e3b4a5c6d"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plinth outputs (-want +got):\n%s", diff)
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	d := newTFDir(t, tf, configDir(t, importUpdateConfig))
	out = d.must("plan", "-no-color")
	if !strings.Contains(out, planLine) {
		t.Errorf("terraform's plan is not two imports and one update:\n%s", out)
	}
	if diff := cmp.Diff(planBlocks(out), gotBlocks); diff != "" {
		t.Errorf("the plans' blocks differ (-terraform +plinth):\n%s", diff)
	}
	d.must("apply", "-auto-approve", "-no-color")
	if out := d.must("plan", "-no-color"); !strings.Contains(out, "No changes") {
		t.Errorf("terraform: a plan after the import is not clean:\n%s", out)
	}
	compareOutputs(t, d.outputs(), got)
}

// TestRemovedBlock forgets a file with removed { lifecycle { destroy =
// false } }: it stays on disk and leaves the state.
func TestRemovedBlock(t *testing.T) {
	needReal(t)
	p := newProject(t, configDir(t, `
resource "local_file" "f" {
  filename = "${path.module}/kept.txt"
  content  = "still here"
}
resource "local_file" "other" {
  filename = "${path.module}/other.txt"
  content  = "x"
}
`))
	p.must("up", "--yes")
	writeConfig(t, p.dir, `
removed {
  from = local_file.f
  lifecycle {
    destroy = false
  }
}
resource "local_file" "other" {
  filename = "${path.module}/other.txt"
  content  = "x"
}
`)
	if r := p.must("preview"); !strings.Contains(r.Stdout, "will no longer be managed") || strings.Contains(r.Stdout, "will be destroyed") {
		t.Errorf("plinth's preview does not just forget local_file.f:\n%s", r.Stdout)
	}
	p.must("up", "--yes")
	if data, err := os.ReadFile(filepath.Join(p.dir, "kept.txt")); err != nil || string(data) != "still here" {
		t.Errorf("the forgotten file is gone or changed: %q, %v", data, err)
	}
	if ls := p.must("state", "ls").Stdout; strings.Contains(ls, "local_file.f") || !strings.Contains(ls, "local_file.other") {
		t.Errorf("the state still holds local_file.f, or lost local_file.other:\n%s", ls)
	}
}

const movedOntoStep1 = `
resource "random_pet" "a" { length = 1 }
resource "random_pet" "b" { length = 2 }
output "b" { value = random_pet.b.id }
`

const movedOntoStep2 = `
resource "random_pet" "b" { length = 2 }
moved {
  from = random_pet.a
  to   = random_pet.b
}
output "b" { value = random_pet.b.id }
`

// TestMovedOntoExistingTarget: a moved block whose target the state
// already holds is not carried out, in both tools: the plan warns
// "Unresolved resource instance address changes", keeps random_pet.b and
// destroys random_pet.a, which is no longer declared. A move from a
// resource still declared is an error in both.
func TestMovedOntoExistingTarget(t *testing.T) {
	needReal(t)
	const warning, move, plan = "Unresolved resource instance address changes", "random_pet.a could not move to random_pet.b", "Plan: 0 to add, 0 to change, 1 to destroy."
	p := newProject(t, configDir(t, movedOntoStep1))
	p.must("up", "--yes")
	before := p.outputs()
	writeConfig(t, p.dir, movedOntoStep1+"moved {\n  from = random_pet.a\n  to   = random_pet.b\n}\n")
	if r := p.run("preview"); r.Code != 1 || !strings.Contains(r.Output(), "Moved object still exists") {
		t.Errorf("plinth: a move from a declared resource is not refused (exit %d):\n%s", r.Code, r.Output())
	}
	writeConfig(t, p.dir, movedOntoStep2)
	for _, want := range []string{warning, move, plan} {
		if out := p.must("preview").Output(); !strings.Contains(out, want) {
			t.Errorf("plinth's preview lacks %q:\n%s", want, out)
		}
	}
	p.must("up", "--yes")
	if diff := cmp.Diff(before, p.outputs()); diff != "" {
		t.Errorf("plinth: random_pet.b changed (-before +after):\n%s", diff)
	}
	if ls := p.must("state", "ls").Stdout; strings.Contains(ls, "random_pet.a") || !strings.Contains(ls, "random_pet.b") {
		t.Errorf("plinth's state after the apply:\n%s", ls)
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH: skipping its side")
	}
	d := newTFDir(t, tf, configDir(t, movedOntoStep1))
	d.must("apply", "-auto-approve", "-no-color")
	tfBefore := d.outputs()
	writeConfig(t, d.dir, movedOntoStep2)
	out := d.must("plan", "-no-color")
	for _, want := range []string{warning, move, plan} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("terraform's plan lacks %q:\n%s", want, out)
		}
	}
	d.must("apply", "-auto-approve", "-no-color")
	if diff := cmp.Diff(tfBefore, d.outputs()); diff != "" {
		t.Errorf("terraform: random_pet.b changed (-before +after):\n%s", diff)
	}
}
