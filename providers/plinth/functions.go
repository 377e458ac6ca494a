package plinth

import (
	"context"
	"fmt"
	"os"
)

// GetEnvArgs are the arguments of plinth:index:getEnv.
type GetEnvArgs struct {
	Name    string  `plinth:"name" doc:"The variable's name."`
	Default *string `plinth:"default,optional" doc:"The value when the variable is not set."`
}

// GetEnvResult is the result of plinth:index:getEnv.
type GetEnvResult struct {
	Value  string `plinth:"value" doc:"The variable's value, the default, or empty."`
	Exists bool   `plinth:"exists" doc:"Whether the variable is set."`
}

func getEnv(_ context.Context, a GetEnvArgs) (GetEnvResult, error) {
	v, ok := os.LookupEnv(a.Name)
	if !ok && a.Default != nil {
		v = *a.Default
	}
	return GetEnvResult{Value: v, Exists: ok}, nil
}

// ReadFileArgs are the arguments of plinth:index:readFile.
type ReadFileArgs struct {
	Path string `plinth:"path" doc:"The file to read; a relative path resolves against the provider's root."`
}

// ReadFileResult is the result of plinth:index:readFile.
type ReadFileResult struct {
	Content string `plinth:"content" doc:"The file's contents."`
	Size    int64  `plinth:"size" doc:"The file's size in bytes."`
	SHA256  string `plinth:"sha256" doc:"The hex SHA-256 of the contents."`
}

func readFile(ctx context.Context, a ReadFileArgs) (ReadFileResult, error) {
	path, err := config(ctx).resolve(a.Path)
	if err != nil {
		return ReadFileResult{}, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return ReadFileResult{}, fmt.Errorf("reading %s: %w", path, err)
	}
	return ReadFileResult{Content: string(data), Size: int64(len(data)), SHA256: hashHex(data)}, nil
}
