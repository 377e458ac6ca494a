package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/plinth-iac/plinth/internal/display"
	"github.com/plinth-iac/plinth/internal/install"
	"github.com/plinth-iac/plinth/internal/install/lock"
	"github.com/plinth-iac/plinth/internal/plugin"
	"github.com/plinth-iac/plinth/internal/plugin/schemacache"
	"github.com/plinth-iac/plinth/internal/program/hcl"
)

// checkTerraformProviders checks, before a Terraform configuration runs,
// what terraform checks before a plan: every provider it requires is
// installed, and, where a dependency lock file exists, is the version
// the lock selects with a package whose hash the lock lists. Problems
// are reported together, naming each provider by its source address, with
// the command that fixes them. Providers dev_overrides names are not
// checked; nor are plugins found outside a Terraform plugin directory
// (plinth's own plugin directories), which have no package to hash.
// It returns the plugins it found, which the run will start.
//
// sums is the schema cache whose recorded binary sums stand in for
// hashing a package's files that are unchanged since (see
// lockedPackageHash): the check then reads no large binary, and the
// provider's schema lookup, which wants the same sum, finds it recorded.
func checkTerraformProviders(ctx context.Context, dir string, finder *plugin.Finder, sums schemacache.Cache) ([]plugin.Plugin, error) {
	reqs, err := install.Requirements(dir, hcl.Files)
	if err != nil {
		return nil, nil // the program's own loading reports a bad configuration
	}
	lockPath := filepath.Join(dir, lock.FileName)
	_, statErr := os.Stat(lockPath)
	lk, err := lock.Read(lockPath)
	if err != nil {
		return nil, display.Errorf("Invalid dependency lock file", "%s. Run plinth init to write it anew.", err)
	}
	var missing, inconsistent []string
	var found []plugin.Plugin
	for _, rq := range reqs {
		addr := rq.Source.String()
		if _, ok := finder.Env.DevOverrides[addr]; ok {
			continue
		}
		entry, locked := lk.Providers[addr]
		if statErr == nil && !locked {
			inconsistent = append(inconsistent, fmt.Sprintf("provider %s: required by this configuration but no version is selected", addr))
			continue
		}
		want := rq.Constraints
		if locked {
			want = entry.Version
		}
		p, err := finder.Find(ctx, plugin.Request{Name: rq.Source.Type, Version: want, Source: addr, Protocol: plugin.ProtocolTerraform})
		var nf *plugin.NotFoundError
		switch {
		case errors.As(err, &nf):
			missing = append(missing, notInstalled(rq, entry))
		case err != nil:
			return nil, err
		case locked:
			if msg := unlockedPackage(p, entry, sums); msg != "" {
				inconsistent = append(inconsistent, msg)
			}
		}
		if err == nil {
			found = append(found, p)
		}
	}
	return found, providerProblems(missing, inconsistent, statErr == nil)
}

func notInstalled(rq install.Requirement, entry lock.Provider) string {
	if entry.Version != "" {
		return fmt.Sprintf("%s: there is no package for %s %s installed in .terraform/providers or plinth's plugin directories", rq.Source, rq.Source, entry.Version)
	}
	if rq.Constraints != "" {
		return fmt.Sprintf("%s: no installed package matches the version constraints %q", rq.Source, rq.Constraints)
	}
	return fmt.Sprintf("%s: no package is installed", rq.Source)
}

// unlockedPackage says what is wrong with a plugin found in a Terraform
// package directory (.../VERSION/OS_ARCH/) whose hash the lock does not
// list; "" if nothing is, or the plugin has no such directory.
func unlockedPackage(p plugin.Plugin, entry lock.Provider, sums schemacache.Cache) string {
	pkg := filepath.Dir(p.Path)
	if p.Address == "" || !strings.Contains(filepath.Base(pkg), "_") {
		return ""
	}
	h, err := lockedPackageHash(pkg, sums)
	if err != nil || entry.Has(h) {
		return ""
	}
	return fmt.Sprintf("provider %s: the installed package for %s %s (in %s) has hash %s, which is not among the checksums the dependency lock file records for it (%s)",
		entry.Address, entry.Address, entry.Version, pkg, h, strings.Join(entry.Hashes, ", "))
}

// lockedPackageHash is the h1: hash of a package directory. Where the
// schema cache's stamps carry the change time and inode
// (schemacache.TrustedStamps), a file whose stamp matches its record is
// not read again: a file changed in any way since it was hashed, even
// with its size and modification time put back, is hashed afresh, so a
// package that no longer matches the lock is still refused.
func lockedPackageHash(pkg string, sums schemacache.Cache) (string, error) {
	if !schemacache.TrustedStamps {
		sums = schemacache.Cache{}
	}
	return lock.HashDirSums(pkg, sums.Sum)
}

// providerProblems is the error terraform gives for providers that are
// not installed or disagree with the lock; nil for none.
func providerProblems(missing, inconsistent []string, haveLock bool) error {
	if len(inconsistent) > 0 {
		advice := "To make the initial dependency selections that will initialize the dependency lock file, run:\n  plinth init"
		if haveLock {
			advice = "To update the locked dependency selections to match a changed configuration, or to reinstall the packages the lock vouches for, run:\n  plinth init\n(plinth init --upgrade to choose new versions and record their checksums)"
		}
		return display.Errorf("Inconsistent dependency lock file", "The following dependency selections recorded in the lock file are inconsistent with the current configuration or the installed packages:\n  - %s\n\n%s",
			strings.Join(inconsistent, "\n  - "), advice)
	}
	if len(missing) > 0 {
		return display.Errorf("Required plugins are not installed", "The installed provider plugins are not consistent with the packages this configuration requires:\n  - %s\n\nPlinth uses external plugins to integrate with a variety of different infrastructure services. To download the plugins required for this configuration, run:\n  plinth init",
			strings.Join(missing, "\n  - "))
	}
	return nil
}
