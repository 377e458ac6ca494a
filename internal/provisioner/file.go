package provisioner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/plinth-iac/plinth/internal/provider"
)

// File is Terraform's file provisioner, writing to the machine running
// plinth: it copies source (a file) or writes content to destination.
// Copying to a remote host over a connection is not supported.
type File struct {
	// Dir is what relative sources and destinations are relative to; ""
	// means plinth's working directory.
	Dir string
}

var _ provider.Provisioner = File{}

// ValidateConfig checks that exactly one of source and content is given,
// and a destination.
func (File) ValidateConfig(_ context.Context, req provider.ValidateProvisionerRequest) (provider.ValidateProvisionerResponse, error) {
	fs := unknownKeys(req.Config, "source", "content", "destination")
	src, cnt := req.Config["source"], req.Config["content"]
	if src.IsNull() == cnt.IsNull() {
		fs = append(fs, provider.CheckFailure{Property: "source", Reason: "the file provisioner needs exactly one of source (a file to copy) and content (text to write)"})
	}
	if req.Config["destination"].IsNull() {
		fs = append(fs, provider.CheckFailure{Property: "destination", Reason: "the file provisioner needs a destination path"})
	}
	return provider.ValidateProvisionerResponse{Failures: fs}, nil
}

// Provision writes the file, creating the destination's directory.
func (f File) Provision(_ context.Context, req provider.ProvisionRequest) error {
	dst, err := str(req.Config, "destination")
	if err != nil || dst == "" {
		return fmt.Errorf("file provisioner: destination: %v", orMissing(err))
	}
	dst = inDir(f.Dir, dst)
	data, err := fileData(req, f.Dir)
	if err != nil {
		return fmt.Errorf("file provisioner: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("file provisioner: %w", err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return fmt.Errorf("file provisioner: %w", err)
	}
	if req.Output != nil {
		req.Output(fmt.Sprintf("(file): wrote %d bytes to %s", len(data), dst))
	}
	return nil
}

func fileData(req provider.ProvisionRequest, dir string) ([]byte, error) {
	if c, err := str(req.Config, "content"); err != nil || !req.Config["content"].IsNull() {
		return []byte(c), err
	}
	src, err := str(req.Config, "source")
	if err != nil || src == "" {
		return nil, fmt.Errorf("source: %v", orMissing(err))
	}
	return os.ReadFile(inDir(dir, src))
}

func orMissing(err error) error {
	if err == nil {
		return fmt.Errorf("missing")
	}
	return err
}

// Stop does nothing: writing a file is quick.
func (File) Stop(context.Context) error { return nil }

// Close does nothing.
func (File) Close() error { return nil }
