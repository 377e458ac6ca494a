package plan

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// step digests a planned step.
func (p *Plan) step(s engine.PlannedStep) Step {
	st := Step{URN: string(s.URN), Op: string(s.Op)}
	if s.ID != "" && s.ID != engine.UnknownID {
		st.ID = p.digest([]byte(s.ID))
	}
	if s.Inputs != nil {
		st.Inputs = make(map[string]string, len(s.Inputs))
		for k, v := range s.Inputs {
			st.Inputs[k] = p.valueDigest(v)
		}
	}
	return st
}

// valueDigest is the keyed digest of v, or Unknown if any of it is
// unknown. A secret is digested as its value, marked secret.
func (p *Plan) valueDigest(v resource.Value) string {
	if v.ContainsUnknowns() {
		return Unknown
	}
	var b strings.Builder
	canon(&b, v)
	return p.digest([]byte(b.String()))
}

// canon writes v in one canonical form: secrets with their contents
// (Value.String hides them), objects with sorted keys.
func canon(b *strings.Builder, v resource.Value) {
	switch v.Kind() {
	case resource.SecretKind:
		b.WriteString("secret(")
		canon(b, v.SecretElement())
		b.WriteString(")")
	case resource.ArrayKind:
		b.WriteString("[")
		for _, e := range v.Array() {
			canon(b, e)
			b.WriteString(",")
		}
		b.WriteString("]")
	case resource.ObjectKind:
		o := v.Object()
		b.WriteString("{")
		for _, k := range o.Keys() {
			b.WriteString(strconv.Quote(k) + ":")
			canon(b, o[k])
			b.WriteString(",")
		}
		b.WriteString("}")
	default:
		b.WriteString(v.String())
	}
}

// ProgramDigest is the keyed digest of the program a plan runs: every
// program file in dir (YAML, Terraform and .tfvars files, outside hidden
// directories such as .plinth), the stack's config file
// plinth.<stack>.yaml (not other stacks'), and the -var and -var-file
// arguments.
func (p *Plan) ProgramDigest(dir, stack string, args []string) (string, error) {
	files, err := programFiles(dir, stack)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range files {
		data, err := readFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		b.WriteString(strconv.Quote(f) + " " + p.digest(data) + "\n")
	}
	for _, a := range args {
		b.WriteString("arg " + strconv.Quote(a) + "\n")
	}
	return p.digest([]byte(b.String())), nil
}

// programFiles lists the program files under dir, sorted, as paths
// relative to dir.
func programFiles(dir, stack string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && isProgramFile(name, stack) {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

func isProgramFile(name, stack string) bool {
	if strings.HasPrefix(name, "plinth.") && strings.HasSuffix(name, ".yaml") && name != "plinth.yaml" {
		return name == "plinth."+stack+".yaml"
	}
	for _, ext := range []string{".yaml", ".yml", ".tf", ".tf.json", ".tfvars", ".tfvars.json", ".hcl"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}
