package provisioner

import (
	"context"
	"fmt"

	"github.com/plinth-iac/plinth/internal/provider"
)

// Launcher starts a provisioner plugin by name (terraform-provisioner-NAME);
// it returns ErrNotFound wrapped when there is no such plugin.
type Launcher func(ctx context.Context, name string) (provider.Provisioner, error)

// Source finds provisioners: the built-ins by name, anything else through
// Plugins (nil means none).
type Source struct {
	Plugins Launcher
	// Dir is the directory relative paths are resolved in (the built-ins'
	// working_dir, source and destination) and commands run in, as
	// terraform runs them in its working directory; "" means plinth's.
	Dir string
}

// Provisioner returns the provisioner of a type. The caller closes it.
func (s Source) Provisioner(ctx context.Context, typ string) (provider.Provisioner, error) {
	switch typ {
	case "local-exec":
		return LocalExec{Dir: s.Dir}, nil
	case "file":
		return File{Dir: s.Dir}, nil
	}
	if s.Plugins == nil {
		return nil, fmt.Errorf("unknown provisioner %q: plinth has local-exec and file built in; any other needs a plugin binary terraform-provisioner-%s on PATH or in the plugin directory", typ, typ)
	}
	return s.Plugins(ctx, typ)
}
