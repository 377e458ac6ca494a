package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

func (a *app) importCommand() *cobra.Command {
	var f opFlags
	c := &cobra.Command{
		Use:   "import TYPE NAME ID",
		Short: "Adopt an existing resource into the stack",
		Long: "Import reads the resource with the given ID from its provider and records it in the\n" +
			"stack's state under NAME, without changing it. TYPE is a type token such as\n" +
			"plinth:fs:File or a Terraform type name such as random_pet. Afterwards plinth prints\n" +
			"the YAML to add to plinth.yaml so that the program keeps managing the resource.",
		Example: "  plinth import plinth:fs:File notes /tmp/notes.txt --yes",
		Args:    cobra.ExactArgs(3),
		RunE: func(c *cobra.Command, args []string) error {
			return a.runImport(c.Context(), f, args[0], args[1], args[2])
		},
	}
	f.addCommon(c, "import")
	return c
}

func (a *app) runImport(ctx context.Context, f opFlags, typ, name, id string) error {
	if err := a.needConfirmation("import", f); err != nil {
		return err
	}
	view := a.newView(f.json, f.diff)
	r, err := a.prepare(ctx, view)
	if err != nil {
		return err
	}
	defer r.close()
	req, err := r.importRequest(typ, name, id)
	if err != nil {
		return err
	}
	sess, err := r.openSession(ctx, "plinth import")
	if err != nil {
		return err
	}
	defer closeSession(sess)
	ctx, hard, stop := a.interruptible(ctx, view)
	defer stop()
	expected, err := r.previewAndConfirm(ctx, hard, "import", "Do you want to import this resource?", f, nil, func(opts engine.Options) (*engine.Result, error) {
		return engine.PreviewImport(ctx, sess.Base(), opts, req)
	})
	if err != nil {
		return err
	}
	opts, err := r.options(sess, hard, f)
	if err != nil {
		return err
	}
	var imported *state.Resource
	_, err = r.phase(display.Operation{Verb: "import", Expected: expected}, false, func() (*engine.Result, error) {
		res, err := engine.Import(ctx, sess.Base(), opts, req)
		imported = sess.Snapshot().Find(resource.NewURN(r.ws.stack, r.project.Name(), "", req.Type, name))
		return res, errors.Join(err, r.finishSession(sess, res, err))
	})
	if err != nil || imported == nil || f.json {
		return err
	}
	return writeImportSnippet(a.env.Stdout, typ, name, imported)
}

// writeImportSnippet prints the program text that keeps managing an
// imported resource: its type as the user wrote it and the inputs read
// from the provider.
// Secret inputs are left as placeholders to fill in.
func writeImportSnippet(w io.Writer, typ, name string, r *state.Resource) error {
	props := &yaml.Node{Kind: yaml.MappingNode}
	keys := r.Inputs.Keys()
	sort.Strings(keys)
	for _, k := range keys {
		if r.Inputs[k].IsNull() {
			continue
		}
		props.Content = append(props.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, yamlValue(r.Inputs[k]))
	}
	body := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "type"}, {Kind: yaml.ScalarNode, Value: typ},
	}}
	if len(props.Content) > 0 {
		body.Content = append(body.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "properties"}, props)
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "resources"},
		{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: name}, body}},
	}}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing the program snippet: %w", err)
	}
	fmt.Fprintf(w, "\nAdd this to plinth.yaml so that the program keeps managing %s:\n\n%s", name, buf.String())
	return nil
}

// yamlValue converts an input to program YAML. A secret becomes an
// fn::secret of a placeholder: its value is not printed.
func yamlValue(v resource.Value) *yaml.Node {
	n := &yaml.Node{}
	switch v.Kind() {
	case resource.SecretKind:
		return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Value: "fn::secret"},
			{Kind: yaml.ScalarNode, Value: "REPLACE-WITH-THE-SECRET", LineComment: "the value is secret and was not printed"},
		}}
	case resource.ArrayKind:
		n.Kind = yaml.SequenceNode
		for _, e := range v.Array() {
			n.Content = append(n.Content, yamlValue(e))
		}
		return n
	case resource.ObjectKind:
		n.Kind = yaml.MappingNode
		o := v.Object()
		keys := o.Keys()
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, yamlValue(o[k]))
		}
		return n
	case resource.StringKind, resource.NumberKind, resource.BoolKind, resource.NullKind:
		_ = n.Encode(v.ToGo())
		return n
	}
	_ = n.Encode(v.String())
	return n
}

// importRequest builds the engine's import request: through the program's
// providers-block provider for the package, with its config, when it has
// one.
func (r *stackRun) importRequest(typ, name, id string) (engine.ImportRequest, error) {
	if r.pulumi != nil {
		return engine.ImportRequest{}, errPulumiImport
	}
	req, err := r.project.ImportRequest(typ, name, id)
	if err != nil {
		return req, display.Errorf("Invalid import", "%v.", err)
	}
	prog, err := r.project.ImportProgram(r.config, program.Options{Warn: func(d program.Diagnostic) {
		r.view.Diagnostic(display.FromProgram(d))
	}}, typ, name, id)
	if err != nil {
		return req, display.Errorf("Invalid import", "%v.", err)
	}
	req.Program = prog
	return req, nil
}
