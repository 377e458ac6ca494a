package plinth

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// Name is the package name of the built-in provider.
const Name = "plinth"

// Version is the built-in provider's version.
const Version = "0.1.0"

// The type tokens of the built-in resources and functions.
const (
	PetType       = "plinth:random:Pet"
	StringType    = "plinth:random:String"
	IntegerType   = "plinth:random:Integer"
	FileType      = "plinth:fs:File"
	CommandType   = "plinth:exec:Command"
	SleepType     = "plinth:time:Sleep"
	GetEnvToken   = "plinth:index:getEnv"
	ReadFileToken = "plinth:index:readFile"
)

// Pure reports whether the resource type token is pure when run in
// process: its create, update and delete compute in memory and act on
// nothing outside plinth's state, so plinth may record each with one
// journal entry (internal/provider.Pure). The random types are: they draw
// from a generator and live only in state. File (the file system),
// Command (runs commands) and Sleep (waits on the clock) are not.
func Pure(token string) bool {
	switch token {
	case PetType, StringType, IntegerType:
		return true
	}
	return false
}

// New returns a fresh, unconfigured instance of the built-in provider. It
// panics only if the built-in definitions themselves are broken, which the
// package's tests rule out.
func New() provider.Provider {
	p, err := provider.New(provider.Info{
		Name:        Name,
		Version:     Version,
		DisplayName: "Plinth built-ins",
		Description: "Random values, local files, shell commands and timers, built into plinth.",
		Keywords:    []string{"random", "file", "command", "sleep"},
	},
		provider.WithConfig[Config](),
		provider.WithResource[PetArgs, PetState](PetType, Pet{}, "A random pet name, such as \"witty-otter\". The name is the resource's ID."),
		provider.WithResource[StringArgs, StringState](StringType, String{}, "A random string of chosen character classes. Not a secret: use it for names, not passwords."),
		provider.WithResource[IntegerArgs, IntegerState](IntegerType, Integer{}, "A random integer in [min, max]; the same seed gives the same result."),
		provider.WithResource[FileArgs, FileState](FileType, File{}, "A local file with the given content or source asset."),
		provider.WithResource[CommandArgs, CommandState](CommandType, Command{}, "Shell commands run with `sh -c` when the resource is created, updated and deleted."),
		provider.WithResource[SleepArgs, SleepState](SleepType, Sleep{}, "Waits on creation and on deletion."),
		provider.WithFunction(GetEnvToken, getEnv, "Reads an environment variable of the plinth process."),
		provider.WithFunction(ReadFileToken, readFile, "Reads a local file; a relative path resolves against the provider's root."),
	)
	assert(err == nil, "built-in provider definitions are broken: %v", err)
	return p
}

// assert panics when a broken invariant is found: a bug in plinth, never a
// user error.
func assert(ok bool, format string, args ...any) {
	if !ok {
		panic(fmt.Sprintf("plinth: internal error: "+format, args...))
	}
}

// Config is the built-in provider's configuration.
type Config struct {
	Root string `plinth:"root,optional" doc:"Directory that relative paths resolve against. The CLI sets it to the project directory; the default is the working directory."`
}

// Configure makes Root absolute and checks that it is a directory.
func (c *Config) Configure(context.Context) error {
	if c.Root == "" {
		return nil
	}
	abs, err := filepath.Abs(c.Root)
	if err != nil {
		return fmt.Errorf("root %q: %w", c.Root, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("root %q: %w; set plinth:root to an existing directory", c.Root, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("root %q is not a directory; set plinth:root to the directory relative paths should resolve against", c.Root)
	}
	c.Root = abs
	return nil
}

// resolve makes path absolute against the configured root, or the working
// directory.
func (c Config) resolve(path string) (string, error) {
	if filepath.IsAbs(path) {
		return filepath.Clean(path), nil
	}
	root := c.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("resolving %q: %w", path, err)
		}
		root = wd
	}
	return filepath.Join(root, path), nil
}

func config(ctx context.Context) Config { return provider.GetConfig[Config](ctx) }
