package plinth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/plinth-iac/plinth/sdk/provider"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// FileArgs are the inputs of plinth:fs:File. Exactly one of Content and
// Source is set.
type FileArgs struct {
	Path        string          `plinth:"path,replaceOnChanges" doc:"Where the file is. A relative path resolves against the provider's root (the project directory)."`
	Content     *string         `plinth:"content,optional" doc:"The file's text. Set this or source."`
	Source      *resource.Asset `plinth:"source,optional" doc:"An asset whose bytes become the file. Set this or content."`
	Permissions string          `plinth:"permissions" default:"0644" doc:"The file's mode as an octal string, such as \"0644\"."`
}

// FileState are the outputs of plinth:fs:File.
type FileState struct {
	FileArgs
	AbsolutePath string `plinth:"absolutePath" doc:"The resolved absolute path (also the resource's ID)."`
	Size         int64  `plinth:"size" doc:"The file's size in bytes."`
	SHA256       string `plinth:"sha256" doc:"The hex SHA-256 of the file's contents."`
}

// File is plinth:fs:File: a local file whose content plinth owns. Read
// notices a file changed or deleted outside plinth; the next update puts it
// back.
type File struct{}

// Check requires exactly one of content and source, and a valid mode,
// which it normalises to four octal digits.
func (File) Check(_ context.Context, op provider.CheckOp[FileArgs]) (provider.CheckResult[FileArgs], error) {
	in, u := op.News, op.Unknowns
	var fs []provider.CheckFailure
	if in.Path == "" && !unknown(u, "path") {
		fs = append(fs, provider.CheckFailure{Property: "path", Reason: "must not be empty"})
	}
	hasContent, hasSource := in.Content != nil || unknown(u, "content"), in.Source != nil || unknown(u, "source")
	switch {
	case hasContent && hasSource:
		fs = append(fs, provider.CheckFailure{Property: "source", Reason: "set either content or source, not both"})
	case !hasContent && !hasSource:
		fs = append(fs, provider.CheckFailure{Property: "content", Reason: "set content (text) or source (an asset)"})
	}
	if !unknown(u, "permissions") {
		mode, err := parseMode(in.Permissions)
		if err != nil {
			fs = append(fs, provider.CheckFailure{Property: "permissions", Reason: err.Error()})
		} else {
			in.Permissions = formatMode(mode)
		}
	}
	return provider.CheckResult[FileArgs]{Inputs: in, Failures: fs}, nil
}

func parseMode(s string) (fs.FileMode, error) {
	m, err := strconv.ParseUint(s, 8, 32)
	if err != nil || m > 0o777 {
		return 0, fmt.Errorf("%q is not a file mode: write it in octal, between \"0000\" and \"0777\", such as \"0644\"", s)
	}
	return fs.FileMode(m), nil
}

func formatMode(m fs.FileMode) string { return fmt.Sprintf("%04o", uint32(m.Perm())) }

// Create writes the file, making missing directories.
func (File) Create(ctx context.Context, op provider.CreateOp[FileArgs]) (provider.CreateResult[FileState], error) {
	st, err := writeFile(config(ctx), op.Inputs)
	if err != nil {
		return provider.CreateResult[FileState]{}, err
	}
	return provider.CreateResult[FileState]{ID: st.AbsolutePath, Outputs: st}, nil
}

// Update rewrites the file in place (a new path replaces it instead).
func (File) Update(ctx context.Context, op provider.UpdateOp[FileArgs, FileState]) (provider.UpdateResult[FileState], error) {
	st, err := writeFile(config(ctx), op.News)
	if err != nil {
		return provider.UpdateResult[FileState]{}, err
	}
	return provider.UpdateResult[FileState]{Outputs: st}, nil
}

// Delete removes the file; one already gone is fine.
func (File) Delete(_ context.Context, op provider.DeleteOp[FileArgs, FileState]) error {
	path := op.Outputs.AbsolutePath
	if path == "" {
		path = op.ID
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("deleting %s: %w", path, err)
	}
	return nil
}

// Read looks at the file as it is now. A missing file is gone (empty ID);
// changed content or mode shows in the outputs, so the next diff puts it
// back. On import the ID is the file's path, relative ones resolving
// against the root.
func (File) Read(ctx context.Context, op provider.ReadOp[FileArgs, FileState]) (provider.ReadResult[FileArgs, FileState], error) {
	abs, err := config(ctx).resolve(op.ID)
	if err != nil {
		return provider.ReadResult[FileArgs, FileState]{}, err
	}
	path, data, mode, err := readLocal(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return provider.ReadResult[FileArgs, FileState]{}, nil
	}
	if err != nil {
		return provider.ReadResult[FileArgs, FileState]{}, err
	}
	in, st := op.Inputs, op.State
	if op.Import {
		content := string(data)
		in = FileArgs{Path: op.ID, Content: &content, Permissions: formatMode(mode)} // the path as the user named it
		st.FileArgs = in
	}
	st.AbsolutePath, st.Permissions = path, formatMode(mode)
	st.Size, st.SHA256 = int64(len(data)), hashHex(data)
	if st.Content != nil && hashHex([]byte(*st.Content)) != st.SHA256 {
		content := string(data)
		st.Content = &content
	}
	return provider.ReadResult[FileArgs, FileState]{ID: path, Inputs: in, Outputs: st}, nil
}

func readLocal(path string) (string, []byte, fs.FileMode, error) {
	info, err := os.Stat(path)
	if err != nil {
		return path, nil, 0, err
	}
	if info.IsDir() {
		return path, nil, 0, fmt.Errorf("%s is a directory, not a file", path)
	}
	data, err := os.ReadFile(path)
	return path, data, info.Mode().Perm(), err
}

// Diff adds to the default diff what comparing inputs cannot see: a source
// whose bytes differ from the file's, and a relative path that now resolves
// elsewhere (a new root). A path written differently that resolves to the
// same file ("a.txt" and "/root/a.txt") is no change: the file is the same,
// and replacing it in place would delete the new file.
func (File) Diff(ctx context.Context, op provider.DiffOp[FileArgs, FileState]) (provider.DiffResult, error) {
	dd := op.Default
	if src := op.News.Source; src != nil && src.Hash != "" && src.Hash != op.OldOutputs.SHA256 && !unknown(op.Unknowns, "source") {
		if _, ok := dd["source"]; !ok {
			dd["source"] = resource.PropertyDiff{Kind: resource.DiffUpdate}
		}
	}
	if unknown(op.Unknowns, "path") {
		return provider.DiffResult{DetailedDiff: dd}, nil
	}
	abs, err := config(ctx).resolve(op.News.Path)
	if err != nil {
		return provider.DiffResult{}, err
	}
	if abs == op.OldOutputs.AbsolutePath {
		delete(dd, "path")
	} else {
		dd["path"] = resource.PropertyDiff{Kind: resource.DiffUpdate, Replace: true}
	}
	return provider.DiffResult{DetailedDiff: dd}, nil
}

// PreviewCreate predicts the outputs: the absolute path once the path is
// known, the size and hash once the content is.
func (File) PreviewCreate(ctx context.Context, op provider.CreateOp[FileArgs]) (provider.CreateResult[FileState], error) {
	st, unknowns, err := previewFile(config(ctx), op.Inputs, op.Unknowns)
	return provider.CreateResult[FileState]{Outputs: st, Unknowns: unknowns}, err
}

// PreviewUpdate predicts the outputs as PreviewCreate does.
func (File) PreviewUpdate(ctx context.Context, op provider.UpdateOp[FileArgs, FileState]) (provider.UpdateResult[FileState], error) {
	st, unknowns, err := previewFile(config(ctx), op.News, op.Unknowns)
	return provider.UpdateResult[FileState]{Outputs: st, Unknowns: unknowns}, err
}

func previewFile(cfg Config, in FileArgs, unknowns []string) (FileState, []string, error) {
	st := FileState{FileArgs: in}
	var out []string
	if unknown(unknowns, "path") {
		out = append(out, "absolutePath")
	} else {
		abs, err := cfg.resolve(in.Path)
		if err != nil {
			return st, nil, err
		}
		st.AbsolutePath = abs
	}
	if in.Content != nil && !unknown(unknowns, "content") {
		st.Size, st.SHA256 = int64(len(*in.Content)), hashHex([]byte(*in.Content))
	} else {
		out = append(out, "size", "sha256")
	}
	return st, out, nil
}

// writeFile writes the file atomically (a temporary file renamed into
// place) with exactly the requested mode, whatever the umask.
func writeFile(cfg Config, in FileArgs) (FileState, error) {
	abs, err := cfg.resolve(in.Path)
	if err != nil {
		return FileState{}, err
	}
	data, err := fileBytes(cfg, in)
	if err != nil {
		return FileState{}, err
	}
	mode, err := parseMode(in.Permissions)
	if err != nil {
		return FileState{}, fmt.Errorf("permissions: %w", err)
	}
	if err := atomicWrite(abs, data, mode); err != nil {
		return FileState{}, err
	}
	return FileState{FileArgs: in, AbsolutePath: abs, Size: int64(len(data)), SHA256: hashHex(data)}, nil
}

func fileBytes(cfg Config, in FileArgs) ([]byte, error) {
	if in.Content != nil {
		return []byte(*in.Content), nil
	}
	if in.Source == nil {
		return nil, errors.New("neither content nor source is set")
	}
	src := *in.Source
	if src.IsPath() && !filepath.IsAbs(src.Path) {
		abs, err := cfg.resolve(src.Path)
		if err != nil {
			return nil, err
		}
		src.Path = abs
	}
	data, err := src.Bytes()
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	return data, nil
}

func atomicWrite(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the directory of %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, ".plinth-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename this finds nothing
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func hashHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
