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

// Registry speaks Terraform's provider registry protocol: service
// discovery, then the providers.v1 versions and download endpoints.
type Registry struct {
	// HTTP makes the requests; nil is http.DefaultClient (which trusts
	// the system's CAs, or SSL_CERT_FILE's, as terraform does).
	HTTP *http.Client
	// Hosts are the CLI configuration's host blocks: services by
	// hostname, used instead of asking the host.
	Hosts map[string]map[string]string
	// Token is the API token for a registry host ("" for none), sent as
	// a bearer token to its service discovery and providers.v1 endpoints
	// (never to package downloads), as terraform sends it.
	Token func(host string) string
	// Offline is the advice an unreachable host's error ends with; ""
	// is the advice for Terraform providers (mirrors, a plugin cache).
	Offline string
	// Progress, if set, is told of each package download: it returns
	// the writer that sees the bytes as they arrive and the function to
	// call when the download ends. size is -1 when the server does not
	// say.
	Progress func(name string, size int64) (io.Writer, func())
}

const providersOffline = "Offline, or where the host is blocked, install from a mirror instead: a filesystem_mirror (a directory terraform providers mirror DIR fills) or a network_mirror block in the provider_installation block of the CLI configuration (TF_CLI_CONFIG_FILE or ~/.terraformrc); without that block, packages in ~/.terraform.d/plugins/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH are used as they are. A plugin cache (TF_PLUGIN_CACHE_DIR) that holds the locked versions also serves"

// ErrUnreachable wraps every failure to reach a registry or mirror host.
var ErrUnreachable = errors.New("could not reach")

// Available is a version a registry lists, and the platforms and
// protocols it says it has packages for.
type Available struct {
	Version   *version.Version
	Protocols []string
	Platforms []Platform
}

// Platform is an os/arch pair.
type Platform struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
}

func (p Platform) String() string { return p.OS + "_" + p.Arch }

// Package is what the download endpoint says of one package.
type Package struct {
	Filename    string
	DownloadURL string
	SHASumsURL  string
	SigURL      string
	SHASum      string // hex SHA-256 of the zip
	Keys        []SigningKey
}

// SigningKey is a public key the registry vouches for.
type SigningKey struct {
	KeyID      string `json:"key_id"`
	ASCIIArmor string `json:"ascii_armor"`
}

func (r *Registry) client() *http.Client {
	if r.HTTP != nil {
		return r.HTTP
	}
	return http.DefaultClient
}

// providersURL finds the host's providers.v1 endpoint.
func (r *Registry) providersURL(ctx context.Context, host string) (*url.URL, error) {
	return r.serviceURL(ctx, host, "providers.v1")
}

// serviceURL finds one of the host's services (providers.v1,
// modules.v1): from a host block, else from
// https://HOST/.well-known/terraform.json.
func (r *Registry) serviceURL(ctx context.Context, host, service string) (*url.URL, error) {
	base := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	raw, ok := r.Hosts[host][service]
	if r.Hosts[host] == nil {
		// A service's value may be an object (login.v1 is), so only
		// the one asked for is decoded.
		var services map[string]json.RawMessage
		if err := r.getJSON(ctx, base, host, &services); err != nil {
			return nil, err
		}
		ok = json.Unmarshal(services[service], &raw) == nil
	}
	what := map[string]string{"providers.v1": "a provider registry", "modules.v1": "a module registry"}[service]
	if !ok || raw == "" {
		return nil, fmt.Errorf("host %s does not offer %s (its service discovery lists no %s URL)", host, what, service)
	}
	u, err := base.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("host %s gives an invalid %s URL %q: %v", host, service, raw, err)
	}
	if u.Path == "" || u.Path[len(u.Path)-1] != '/' {
		u.Path += "/"
	}
	return u, nil
}

// Versions lists the provider's versions, newest first.
func (r *Registry) Versions(ctx context.Context, p tfaddr.Provider) ([]Available, *url.URL, error) {
	base, err := r.providersURL(ctx, p.Hostname.String())
	if err != nil {
		return nil, nil, err
	}
	u := base.JoinPath(p.Namespace, p.Type, "versions")
	var body struct {
		Versions []struct {
			Version   string     `json:"version"`
			Protocols []string   `json:"protocols"`
			Platforms []Platform `json:"platforms"`
		} `json:"versions"`
	}
	if err := r.getJSON(ctx, u, p.Hostname.String(), &body); err != nil {
		return nil, nil, fmt.Errorf("listing versions of provider %s: %w", p, err)
	}
	var out []Available
	for _, v := range body.Versions {
		parsed, err := version.NewVersion(v.Version)
		if err != nil {
			continue // terraform ignores versions it cannot parse
		}
		out = append(out, Available{Version: parsed, Protocols: v.Protocols, Platforms: v.Platforms})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version.GreaterThan(out[j].Version) })
	return out, base, nil
}

// Package asks where the package of one version for one platform is.
// URLs in the answer are made absolute against the endpoint's.
func (r *Registry) Package(ctx context.Context, base *url.URL, p tfaddr.Provider, v string, pl Platform) (Package, error) {
	u := base.JoinPath(p.Namespace, p.Type, v, "download", pl.OS, pl.Arch)
	var body struct {
		Protocols   []string `json:"protocols"`
		Filename    string   `json:"filename"`
		DownloadURL string   `json:"download_url"`
		SHASumsURL  string   `json:"shasums_url"`
		SigURL      string   `json:"shasums_signature_url"`
		SHASum      string   `json:"shasum"`
		SigningKeys struct {
			GPG []SigningKey `json:"gpg_public_keys"`
		} `json:"signing_keys"`
	}
	if err := r.getJSON(ctx, u, p.Hostname.String(), &body); err != nil {
		var nf notFound
		if errors.As(err, &nf) {
			return Package{}, fmt.Errorf("provider %s v%s is not available for %s", p.ForDisplay(), v, pl)
		}
		return Package{}, fmt.Errorf("finding the package of provider %s v%s for %s: %w", p.ForDisplay(), v, pl, err)
	}
	if !speaksOurProtocol(body.Protocols) {
		return Package{}, fmt.Errorf("provider %s v%s speaks plugin protocol %s, but plinth speaks 5 and 6, as terraform 1.11 does; choose another version in required_providers", p.ForDisplay(), v, strings.Join(body.Protocols, ", "))
	}
	out := Package{Filename: body.Filename, SHASum: body.SHASum, Keys: body.SigningKeys.GPG}
	for dst, raw := range map[*string]string{&out.DownloadURL: body.DownloadURL, &out.SHASumsURL: body.SHASumsURL, &out.SigURL: body.SigURL} {
		abs, err := u.Parse(raw)
		if err != nil || raw == "" {
			return Package{}, fmt.Errorf("the registry gives provider %s v%s an invalid URL %q", p.ForDisplay(), v, raw)
		}
		*dst = abs.String()
	}
	return out, nil
}

// speaksOurProtocol reports whether a package's plugin protocols include
// 5 or 6 ("5.0"); a registry that lists none is taken at its word.
func speaksOurProtocol(protocols []string) bool {
	for _, p := range protocols {
		major, _, _ := strings.Cut(p, ".")
		if major == "5" || major == "6" {
			return true
		}
	}
	return len(protocols) == 0
}

// notFound is a 404 from the registry.
type notFound struct{ url string }

func (e notFound) Error() string { return e.url + " was not found (404)" }

// getJSON GETs u and decodes its JSON body into dst.
func (r *Registry) getJSON(ctx context.Context, u *url.URL, host string, dst any) error {
	token := ""
	if r.Token != nil {
		token = r.Token(host)
	}
	body, err := r.request(ctx, u.String(), host, token)
	if err != nil {
		return err
	}
	defer body.Close()
	if err := json.NewDecoder(io.LimitReader(body, 16<<20)).Decode(dst); err != nil {
		return fmt.Errorf("%s did not answer valid JSON: %v", u, err)
	}
	return nil
}

// get GETs a URL without credentials; a status other than 200 is an
// error.
func (r *Registry) get(ctx context.Context, u, host string) (io.ReadCloser, error) {
	return r.request(ctx, u, host, "")
}

// request GETs a URL of a registry host, with its token if not "".
func (r *Registry) request(ctx context.Context, u, host, token string) (io.ReadCloser, error) {
	resp, err := r.send(ctx, u, host, token)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("%s answered %s", u, resp.Status)
	}
	return resp.Body, nil
}

// send GETs a URL of a registry host, with its token if not ""; a
// status other than 200 or 204 is an error.
func (r *Registry) send(ctx context.Context, u, host, token string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := r.client().Do(req)
	if err != nil {
		advice := r.Offline
		if advice == "" {
			advice = providersOffline
		}
		return nil, fmt.Errorf("%w %s: %v. Check the network and the host's name. %s", ErrUnreachable, host, err, advice)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		resp.Body.Close()
		return nil, fmt.Errorf("%s answered %s: the registry %s wants credentials plinth does not have or it refuses; set %s or add a credentials block for it to the CLI configuration", u, resp.Status, host, TokenVariable(host))
	case resp.StatusCode == http.StatusNotFound:
		resp.Body.Close()
		return nil, notFound{u}
	case resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent:
		resp.Body.Close()
		return nil, fmt.Errorf("%s answered %s", u, resp.Status)
	}
	return resp, nil
}
