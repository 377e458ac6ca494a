package install

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// ModuleVersions lists a registry module's versions, newest first, and
// the host's modules.v1 endpoint.
func (r *Registry) ModuleVersions(ctx context.Context, m tfaddr.ModulePackage) ([]*version.Version, *url.URL, error) {
	host := m.Host.String()
	base, err := r.serviceURL(ctx, host, "modules.v1")
	if err != nil {
		return nil, nil, err
	}
	u := base.JoinPath(m.Namespace, m.Name, m.TargetSystem, "versions")
	var body struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	if err := r.getJSON(ctx, u, host, &body); err != nil {
		var nf notFound
		if errors.As(err, &nf) {
			return nil, nil, fmt.Errorf("the registry %s has no module %s/%s/%s (%s answered 404); check the source's namespace, name and system", host, m.Namespace, m.Name, m.TargetSystem, u)
		}
		return nil, nil, fmt.Errorf("listing versions of module %s: %w", m.ForDisplay(), err)
	}
	var out []*version.Version
	for _, mod := range body.Modules {
		for _, v := range mod.Versions {
			if parsed, err := version.NewVersion(v.Version); err == nil {
				out = append(out, parsed)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GreaterThan(out[j]) })
	return out, base, nil
}

// ModuleLocation asks the download endpoint where a module version's
// package is: the X-Terraform-Get header of its 204 answer (or the
// "location" of a JSON answer), made absolute against the endpoint's URL
// when it is a relative URL.
func (r *Registry) ModuleLocation(ctx context.Context, base *url.URL, m tfaddr.ModulePackage, v string) (string, error) {
	host := m.Host.String()
	u := base.JoinPath(m.Namespace, m.Name, m.TargetSystem, v, "download")
	token := ""
	if r.Token != nil {
		token = r.Token(host)
	}
	resp, err := r.send(ctx, u.String(), host, token)
	if err != nil {
		return "", fmt.Errorf("finding the package of module %s %s: %w", m.ForDisplay(), v, err)
	}
	defer resp.Body.Close()
	loc := resp.Header.Get("X-Terraform-Get")
	if loc == "" && resp.StatusCode == http.StatusOK {
		var body struct {
			Location string `json:"location"`
		}
		if err := decodeJSON(resp.Body, &body); err == nil {
			loc = body.Location
		}
	}
	if loc == "" {
		return "", fmt.Errorf("%s gave no X-Terraform-Get header saying where module %s %s is", u, m.ForDisplay(), v)
	}
	if strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "./") || strings.HasPrefix(loc, "../") {
		abs, err := u.Parse(loc)
		if err != nil {
			return "", fmt.Errorf("%s gave an invalid X-Terraform-Get %q: %v", u, loc, err)
		}
		loc = abs.String()
	}
	return loc, nil
}

func decodeJSON(r io.Reader, dst any) error {
	return json.NewDecoder(io.LimitReader(r, 1<<20)).Decode(dst)
}
