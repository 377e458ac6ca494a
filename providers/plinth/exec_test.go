package plinth_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/providers/plinth"
	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func TestCommandLifecycle(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "work"), 0o755); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, root)
	args := map[string]any{
		"create":      `echo "created $GREETING" >> log.txt; echo out; echo err >&2`,
		"update":      `echo updated >> log.txt; printf 'new out\n\n'`,
		"delete":      `echo deleted >> log.txt`,
		"environment": map[string]any{"GREETING": "hi"},
		"dir":         "work",
	}
	log := filepath.Join(root, "work", "log.txt")
	c := h.create(plinth.CommandType, "c", args)
	if c.outputs["stdout"].Str() != "out" || c.outputs["stderr"].Str() != "err" || c.id == "" {
		t.Errorf("outputs after create: %v (ID %q)", c.outputs, c.id)
	}
	if got := readString(t, log); got != "created hi\n" {
		t.Errorf("log after create = %q", got)
	}

	args["environment"] = map[string]any{"GREETING": "hello"}
	c, d := h.up(c, args)
	if d.Replaces() || !cmp.Equal(d.ChangedKeys, []string{"environment"}) {
		t.Errorf("an environment change must update in place: %+v", d)
	}
	if c.outputs["stdout"].Str() != "new out" || c.outputs["stderr"].Str() != "" {
		t.Errorf("outputs after update: %v", c.outputs)
	}

	args["triggers"] = []any{"v2"}
	c, d = h.up(c, args)
	if !cmp.Equal(d.ReplaceKeys, []string{"triggers"}) {
		t.Errorf("a trigger change must replace: %+v", d)
	}
	h.delete(c)
	want := "created hi\nupdated\ncreated hello\ndeleted\ndeleted\n"
	if got := readString(t, log); got != want {
		t.Errorf("log = %q, want %q", got, want)
	}
}

func TestCommandUpdateFallsBackToCreate(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, root)
	c := h.create(plinth.CommandType, "c", map[string]any{"create": "echo one >> runs.txt", "environment": map[string]any{"N": "1"}})
	h.up(c, map[string]any{"create": "echo one >> runs.txt", "environment": map[string]any{"N": "2"}})
	if got := readString(t, filepath.Join(root, "runs.txt")); got != "one\none\n" {
		t.Errorf("runs = %q", got)
	}
}

func TestCommandFailure(t *testing.T) {
	h := newHarness(t, t.TempDir())
	_, err := h.tryCreate(plinth.CommandType, "c", resource.ObjectFromGo(map[string]any{
		"create": `echo first line >&2; echo "the real problem" >&2; exit 3`,
	}))
	want := "the create command exited with status 3; the end of its stderr:\nfirst line\nthe real problem"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	c := h.create(plinth.CommandType, "d", map[string]any{"create": "true", "delete": "echo cannot >&2; exit 1"})
	if err := h.tryDelete(c); err == nil || !strings.Contains(err.Error(), "the delete command exited with status 1") {
		t.Errorf("failing delete: %v", err)
	}
}

func TestCommandOutputIsBounded(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c := h.create(plinth.CommandType, "big", map[string]any{"create": "head -c 1100000 /dev/zero | tr '\\0' a"})
	out := c.outputs["stdout"].Str()
	if !strings.HasSuffix(out, "[51424 more bytes not kept]") || len(out) > 1<<20+64 {
		t.Errorf("stdout of %d bytes ends %q", len(out), out[max(0, len(out)-40):])
	}
}

// waitForFile polls for a file a command creates when it has started. It
// only waits: the test's outcome does not depend on timing.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCommandCancellation(t *testing.T) {
	root := t.TempDir()
	h := newHarness(t, root)
	urn := urnOf(plinth.CommandType, "slow")
	inputs := h.check(urn, nil, resource.ObjectFromGo(map[string]any{"create": "touch started; sleep 600; touch finished"}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := h.p.Create(ctx, provider.CreateRequest{URN: urn, Inputs: inputs})
		done <- err
	}()
	waitForFile(t, filepath.Join(root, "started"))
	cancel()
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "the create command was stopped") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "finished")); !os.IsNotExist(err) {
		t.Errorf("the command ran to the end")
	}
}

func TestCommandOutputOfSecretInputsIsSecret(t *testing.T) {
	h := newHarness(t, t.TempDir())
	c, err := h.tryCreate(plinth.CommandType, "s", resource.Object{
		"create":      resource.NewString("echo $TOKEN"),
		"environment": resource.NewObject(resource.Object{"TOKEN": resource.MakeSecret(resource.NewString("hunter2"))}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if out := c.outputs["stdout"]; !out.IsSecret() || out.SecretElement().Str() != "hunter2" || !c.outputs["stderr"].IsSecret() {
		t.Errorf("stdout = %v, stderr = %v; want secrets", out, c.outputs["stderr"])
	}
	plain := h.create(plinth.CommandType, "p", map[string]any{"create": "echo hi"})
	if plain.outputs["stdout"].IsSecret() {
		t.Errorf("stdout of a command without secrets is secret")
	}
}
