package funcs

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// fileTable holds the functions that read the filesystem or work on paths.
func fileTable(baseDir string) map[string]function.Function {
	return map[string]function.Function{
		"file":             fileFunc(baseDir, false),
		"filebase64":       fileFunc(baseDir, true),
		"fileexists":       fileExistsFunc(baseDir),
		"fileset":          fileSetFunc(baseDir),
		"filemd5":          fileHashFunc(baseDir, md5.New, hex.EncodeToString),
		"filesha1":         fileHashFunc(baseDir, sha1.New, hex.EncodeToString),
		"filesha256":       fileHashFunc(baseDir, sha256.New, hex.EncodeToString),
		"filesha512":       fileHashFunc(baseDir, sha512.New, hex.EncodeToString),
		"filebase64sha256": fileHashFunc(baseDir, sha256.New, base64.StdEncoding.EncodeToString),
		"filebase64sha512": fileHashFunc(baseDir, sha512.New, base64.StdEncoding.EncodeToString),
		"abspath":          pathFunc("Converts a string containing a filesystem path to an absolute path.", absPath),
		"dirname":          pathFunc("Takes a string containing a filesystem path and removes the last portion from it.", okPath(filepath.Dir)),
		"basename":         pathFunc("Takes a string containing a filesystem path and removes all except the last portion from it.", okPath(filepath.Base)),
		"pathexpand":       pathFunc("Takes a filesystem path that might begin with a `~` segment, and if so it replaces that segment with the current user's home directory path.", expandHome),
	}
}

// pathParam is a path argument whose sensitivity the function handles.
var pathParam = function.Parameter{Name: "path", Type: cty.String, AllowMarked: true}

func pathFunc(desc string, f func(string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Description: desc,
		Params:      []function.Parameter{pathParam},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, marks := args[0].Unmark()
			out, err := f(p.AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(out).WithMarks(marks), nil
		},
	})
}

func okPath(f func(string) string) func(string) (string, error) {
	return func(s string) (string, error) { return f(s), nil }
}

func absPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	return filepath.ToSlash(abs), err
}

// expandHome replaces a leading "~" with the user's home directory.
func expandHome(p string) (string, error) {
	if !strings.HasPrefix(p, "~") {
		return p, nil
	}
	if len(p) > 1 && p[1] != '/' && p[1] != '\\' {
		return "", errors.New("cannot expand user-specific home dir")
	}
	home := os.Getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, p[1:]), nil
}

// resolve turns a path argument into the cleaned path to read.
func resolve(baseDir, p string) (string, error) {
	p, err := expandHome(p)
	if err != nil {
		return "", fmt.Errorf("failed to expand ~: %w", err)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(baseDir, p)
	}
	return filepath.Clean(p), nil
}

func readFile(baseDir, p string, marks cty.ValueMarks) ([]byte, error) {
	p, err := resolve(baseDir, p)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(p)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("no file exists at %s; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource", redact(p, marks))
		}
		return nil, fmt.Errorf("failed to read file: %w", err)
	}
	return src, nil
}

func fileFunc(baseDir string, encBase64 bool) function.Function {
	return function.New(&function.Spec{
		Description: "Reads the contents of a file at the given path and returns them as a string.",
		Params:      []function.Parameter{pathParam},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, marks := args[0].Unmark()
			src, err := readFile(baseDir, p.AsString(), marks)
			if err != nil {
				return cty.UnknownVal(cty.String), function.NewArgError(0, err)
			}
			if encBase64 {
				return cty.StringVal(base64.StdEncoding.EncodeToString(src)).WithMarks(marks), nil
			}
			if !utf8.Valid(src) {
				return cty.UnknownVal(cty.String), fmt.Errorf("contents of %s are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead", redact(p.AsString(), marks))
			}
			return cty.StringVal(string(src)).WithMarks(marks), nil
		},
	})
}

func fileHashFunc(baseDir string, h func() hash.Hash, enc func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Description: "Computes a hash of the contents of the file at the given path.",
		Params:      []function.Parameter{pathParam},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, marks := args[0].Unmark()
			path, err := resolve(baseDir, p.AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			// Unlike file, Terraform's hashing functions report the
			// operating system's error as it is.
			src, err := os.ReadFile(path)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(enc(digest(h, src))).WithMarks(marks), nil
		},
	})
}

func fileExistsFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Description: "Determines whether a file exists at the given path.",
		Params:      []function.Parameter{pathParam},
		Type:        function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p, marks := args[0].Unmark()
			path, err := resolve(baseDir, p.AsString())
			if err != nil {
				return cty.UnknownVal(cty.Bool), err
			}
			fi, err := os.Stat(path)
			if err != nil {
				if os.IsNotExist(err) {
					return cty.False.WithMarks(marks), nil
				}
				return cty.UnknownVal(cty.Bool), fmt.Errorf("failed to stat %s", redact(path, marks))
			}
			if fi.Mode().IsRegular() {
				return cty.True.WithMarks(marks), nil
			}
			return cty.UnknownVal(cty.Bool), fmt.Errorf("%s %s", redact(path, marks), irregular(fi.Mode()))
		},
	})
}

// irregular describes a file that is not a regular file.
func irregular(m os.FileMode) string {
	switch t := m.Type(); {
	case t&os.ModeDir != 0:
		return "is a directory, not a file"
	case t&os.ModeDevice != 0:
		return "is a device node, not a regular file"
	case t&os.ModeNamedPipe != 0:
		return "is a named pipe, not a regular file"
	case t&os.ModeSocket != 0:
		return "is a unix domain socket, not a regular file"
	}
	return "is not a regular file"
}

func fileSetFunc(baseDir string) function.Function {
	return function.New(&function.Spec{
		Description: "Enumerates a set of regular file names given a path and pattern.",
		Params: []function.Parameter{
			pathParam,
			{Name: "pattern", Type: cty.String, AllowMarked: true},
		},
		Type: function.StaticReturnType(cty.Set(cty.String)),
		Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
			p, pathMarks := args[0].Unmark()
			pat, patMarks := args[1].Unmark()
			matches, err := fileSet(baseDir, p.AsString(), pat.AsString(), pathMarks, patMarks)
			if err != nil {
				return cty.UnknownVal(ret), err
			}
			if len(matches) == 0 {
				return cty.SetValEmpty(cty.String).WithMarks(pathMarks, patMarks), nil
			}
			return cty.SetVal(stringVals(matches)).WithMarks(pathMarks, patMarks), nil
		},
	})
}

// fileSet returns the regular files under dir matching pattern, relative to
// dir and with forward slashes.
func fileSet(baseDir, dir, pattern string, marks ...cty.ValueMarks) ([]string, error) {
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(baseDir, dir)
	}
	pattern = filepath.Join(dir, pattern)
	matches, err := doublestar.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("failed to glob pattern %s: %w", redact(pattern, marks...), err)
	}
	var out []string
	for _, m := range matches {
		fi, err := os.Stat(m)
		if err != nil {
			return nil, fmt.Errorf("failed to stat %s: %w", redact(m, marks...), err)
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		rel, err := filepath.Rel(dir, m)
		if err != nil {
			return nil, fmt.Errorf("failed to trim path of match %s: %w", redact(m, marks...), err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out, nil
}
