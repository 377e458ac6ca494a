package terraform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/plinth-iac/plinth/sdk/resource"
)

// RemoteStateArgs are terraform_remote_state's arguments.
type RemoteStateArgs struct {
	Backend   string         `plinth:"backend" doc:"The backend that holds the state; plinth reads \"local\"."`
	Config    resource.Value `plinth:"config,optional" doc:"The backend's settings: for local, path (default terraform.tfstate) and workspace_dir."`
	Workspace string         `plinth:"workspace,optional" doc:"The workspace whose state is read; default \"default\"."`
	Defaults  resource.Value `plinth:"defaults,optional" doc:"Values for outputs the state does not have."`
}

// RemoteState are terraform_remote_state's attributes.
type RemoteState struct {
	RemoteStateArgs
	Outputs resource.Value `plinth:"outputs" doc:"The root module outputs of the state, over defaults."`
}

// remoteState reads a local backend's state file, relative paths
// resolving against dir.
func remoteState(dir string) func(context.Context, RemoteStateArgs) (RemoteState, error) {
	return func(_ context.Context, a RemoteStateArgs) (RemoteState, error) {
		if a.Backend != "local" {
			return RemoteState{}, fmt.Errorf("terraform_remote_state: backend %q is not supported: plinth reads only backend \"local\" (a terraform.tfstate file); copy the state to a file and read it with backend = \"local\" and config = { path = \"...\" }", a.Backend)
		}
		path := statePath(dir, a)
		outs, err := readOutputs(path)
		if err != nil {
			return RemoteState{}, err
		}
		merged := resource.Object{}
		for k, v := range a.Defaults.Object() {
			merged[k] = v
		}
		for k, v := range outs {
			merged[k] = v
		}
		if a.Workspace == "" {
			a.Workspace = "default"
		}
		return RemoteState{RemoteStateArgs: a, Outputs: resource.NewObject(merged)}, nil
	}
}

// statePath is where the local backend keeps a workspace's state:
// config.path (default terraform.tfstate) for the default workspace,
// WORKSPACE_DIR/NAME/terraform.tfstate for another.
func statePath(dir string, a RemoteStateArgs) string {
	cfg := a.Config.Object()
	path := cfg["path"].Str()
	if path == "" {
		path = "terraform.tfstate"
	}
	if a.Workspace != "" && a.Workspace != "default" {
		wsDir := cfg["workspace_dir"].Str()
		if wsDir == "" {
			wsDir = "terraform.tfstate.d"
		}
		path = filepath.Join(wsDir, a.Workspace, filepath.Base(path))
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return path
}

// readOutputs reads the root module outputs of a state file (format
// version 4). A missing file is an error, as terraform says.
func readOutputs(path string) (resource.Object, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("unable to find remote state: no stored state was found at %s; apply the configuration that writes it first, or fix config.path", path)
	}
	if err != nil {
		return nil, fmt.Errorf("terraform_remote_state: reading %s: %w", path, err)
	}
	var st struct {
		Version int `json:"version"`
		Outputs map[string]struct {
			Value json.RawMessage `json:"value"`
		} `json:"outputs"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("terraform_remote_state: %s is not a Terraform state file: %w", path, err)
	}
	if st.Version != 4 {
		return nil, fmt.Errorf("terraform_remote_state: %s has state format version %d; plinth reads version 4 (Terraform 0.12 and later): run terraform 1.x on it once to upgrade it", path, st.Version)
	}
	out := resource.Object{}
	for name, o := range st.Outputs {
		v, err := jsonValue(o.Value)
		if err != nil {
			return nil, fmt.Errorf("terraform_remote_state: %s: output %s: %w", path, name, err)
		}
		out[name] = v
	}
	return out, nil
}

// jsonValue decodes a JSON value, numbers exactly.
func jsonValue(raw json.RawMessage) (resource.Value, error) {
	var x any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return resource.Null(), err
	}
	return fromJSON(x)
}

func fromJSON(x any) (resource.Value, error) {
	switch t := x.(type) {
	case json.Number:
		return resource.ParseNumber(t.String())
	case []any:
		elems := make([]resource.Value, len(t))
		for i, e := range t {
			v, err := fromJSON(e)
			if err != nil {
				return v, err
			}
			elems[i] = v
		}
		return resource.NewArray(elems...), nil
	case map[string]any:
		o := resource.Object{}
		for k, e := range t {
			v, err := fromJSON(e)
			if err != nil {
				return v, err
			}
			o[k] = v
		}
		return resource.NewObject(o), nil
	}
	return resource.FromGo(x)
}
