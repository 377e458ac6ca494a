package tfstate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/plinth-iac/plinth/internal/state"
)

// SupportedTerraform is the newest Terraform whose states plinth reads
// knowing every field; newer 1.x states are read if they hold no field
// plinth does not know.
const SupportedTerraform = "1.11"

// Parse reads a Terraform state, refusing what is not format version 4 as
// Terraform 0.12 to 1.x writes it. Errors say what is wrong and where.
func Parse(data []byte) (*State, error) {
	var head struct {
		Version          *int   `json:"version"`
		TerraformVersion string `json:"terraform_version"`
		Serial           any    `json:"serial"`
		Lineage          any    `json:"lineage"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(data, err)
	}
	if err := checkHead(data, head.Version, head.TerraformVersion); err != nil {
		return nil, err
	}
	st := &State{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(st); err != nil {
		return nil, fieldError(data, err, head.TerraformVersion)
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	return st, nil
}

// checkHead checks the format version and the Terraform that wrote it.
func checkHead(data []byte, version *int, tfVersion string) error {
	switch {
	case version == nil && looksLikePulumi(data):
		return errors.New("it is a Pulumi deployment (`pulumi stack export`), not a Terraform state; adopt it with --format pulumi")
	case version == nil:
		return errors.New(`it has no "version" field, so it is not a Terraform state`)
	case *version < FormatVersion:
		return fmt.Errorf("it is a Terraform state of format version %d (Terraform 0.11 or earlier); "+
			"run `terraform apply` or `terraform refresh` once with Terraform 0.12 or later to upgrade it to version 4, then adopt it", *version)
	case *version > FormatVersion:
		return fmt.Errorf("it is a Terraform state of format version %d, newer than the version 4 plinth reads (terraform_version %q)", *version, tfVersion)
	}
	major, _, ok := strings.Cut(tfVersion, ".")
	if n, err := strconv.Atoi(major); tfVersion != "" && (!ok || err != nil) {
		return fmt.Errorf("its terraform_version %q is not a version number", tfVersion)
	} else if n > 1 {
		return fmt.Errorf("it was written by Terraform %s; plinth reads the states of Terraform 0.12 to 1.x", tfVersion)
	}
	return nil
}

func looksLikePulumi(data []byte) bool {
	var d struct {
		Deployment json.RawMessage `json:"deployment"`
		Manifest   json.RawMessage `json:"manifest"`
	}
	return json.Unmarshal(data, &d) == nil && (d.Deployment != nil || d.Manifest != nil)
}

// fieldError describes a decoding error; an unknown field is a state from
// a Terraform that writes something plinth does not know.
func fieldError(data []byte, err error, tfVersion string) error {
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return fmt.Errorf("it holds the field %s, which is not part of state format version 4 as Terraform %s writes it "+
			"(the state says terraform_version %q); plinth does not know what it means, so it refuses the state rather than lose it", f, SupportedTerraform, tfVersion)
	}
	return jsonError(data, err)
}

// jsonError turns encoding/json's errors into a sentence with a place.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if len(bytes.TrimSpace(data)) > 0 && !errors.As(err, &syn) && errors.As(err, &typ) && typ.Field == "" {
		return fmt.Errorf("it is a JSON %s, not a state object", typ.Value)
	}
	return state.DescribeJSONError(data, err)
}

// check validates what JSON decoding cannot: modes, names, providers,
// instance keys and statuses, and duplicate addresses.
func (st *State) check() error {
	seen := map[string]bool{}
	for i, r := range st.Resources {
		if r == nil {
			return fmt.Errorf("resources[%d] is null", i)
		}
		addr, err := r.address()
		if err != nil {
			return fmt.Errorf("resources[%d]: %w", i, err)
		}
		if seen[addr] {
			return fmt.Errorf("resource %s appears twice in the state", addr)
		}
		seen[addr] = true
		if err := r.checkInstances(addr); err != nil {
			return err
		}
	}
	for name, o := range st.Outputs {
		if o == nil || o.Value == nil {
			return fmt.Errorf("output %q has no value", name)
		}
	}
	return nil
}

// checkInstances checks one resource's instances.
func (r *Resource) checkInstances(addr string) error {
	keys := map[string]bool{}
	for i, in := range r.Instances {
		if in == nil {
			return fmt.Errorf("resource %s: instances[%d] is null", addr, i)
		}
		key, err := instanceKey(in.IndexKey)
		if err != nil {
			return fmt.Errorf("resource %s: instances[%d]: %w", addr, i, err)
		}
		at := addr + key
		if in.Deposed != "" {
			at += " (deposed object " + in.Deposed + ")"
		}
		if keys[at] {
			return fmt.Errorf("resource instance %s appears twice in the state", at)
		}
		keys[at] = true
		if err := in.check(at, r.Mode); err != nil {
			return err
		}
	}
	return nil
}

func (in *Instance) check(at, mode string) error {
	switch {
	case in.Status != "" && in.Status != "tainted":
		return fmt.Errorf("resource instance %s has status %q; Terraform writes only \"tainted\"", at, in.Status)
	case in.SchemaVersion < 0:
		return fmt.Errorf("resource instance %s has a negative schema_version %d", at, in.SchemaVersion)
	case len(in.AttributesFlat) > 0 && mode == "managed":
		return fmt.Errorf("resource instance %s holds attributes_flat, Terraform 0.11's flat attributes; "+
			"run `terraform apply` or `terraform refresh` once with Terraform 0.12 or later to rewrite them as JSON, then adopt the state", at)
	}
	return nil
}
