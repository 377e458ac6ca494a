package install

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// verified is a downloaded package whose checksum list's signature and
// whose zip's SHA-256 have been checked.
type verified struct {
	zip   string            // path of the downloaded zip
	sums  map[string]string // SHA256SUMS: hex SHA-256 by file name
	keyID string            // the key that signed SHA256SUMS
}

// fetch downloads a package into dir and verifies it as terraform does:
// SHA256SUMS is signed by one of the registry's keys, it lists the zip's
// file name with the checksum the registry gave, and the zip has that
// checksum.
func (r *Registry) fetch(ctx context.Context, p tfaddr.Provider, v string, pkg Package, dir string) (verified, error) {
	what := fmt.Sprintf("provider %s v%s", p.ForDisplay(), v)
	sums, err := r.getAll(ctx, pkg.SHASumsURL, p.Hostname.String())
	if err != nil {
		return verified{}, fmt.Errorf("downloading the checksums of %s: %w", what, err)
	}
	sig, err := r.getAll(ctx, pkg.SigURL, p.Hostname.String())
	if err != nil {
		return verified{}, fmt.Errorf("downloading the checksums' signature of %s: %w", what, err)
	}
	keyID, err := checkSignature(sums, sig, pkg.Keys)
	if err != nil {
		return verified{}, fmt.Errorf("%s: the signature of its checksums (%s) does not verify: %w; the package was not installed", what, pkg.SHASumsURL, err)
	}
	listed, err := parseSums(sums)
	if err != nil {
		return verified{}, fmt.Errorf("%s: %s: %w", what, pkg.SHASumsURL, err)
	}
	if got := listed[pkg.Filename]; got == "" || !strings.EqualFold(got, pkg.SHASum) {
		return verified{}, fmt.Errorf("%s: the signed checksums list %q as %q, but the registry says its SHA-256 is %q; the package was not installed", what, pkg.Filename, got, pkg.SHASum)
	}
	zip, err := r.download(ctx, pkg.DownloadURL, p.Hostname.String(), dir, pkg.SHASum)
	if err != nil {
		return verified{}, fmt.Errorf("%s: %w; the package was not installed", what, err)
	}
	return verified{zip: zip, sums: listed, keyID: keyID}, nil
}

// checkSignature checks a detached OpenPGP signature (binary or armored)
// of sums against the registry's keys and returns the signer's key ID.
func checkSignature(sums, sig []byte, keys []SigningKey) (string, error) {
	var ring openpgp.EntityList
	for _, k := range keys {
		el, err := openpgp.ReadArmoredKeyRing(strings.NewReader(k.ASCIIArmor))
		if err != nil {
			return "", fmt.Errorf("the registry's signing key %s cannot be read: %v", k.KeyID, err)
		}
		ring = append(ring, el...)
	}
	if len(ring) == 0 {
		return "", errors.New("the registry lists no signing keys for it")
	}
	signer, err := openpgp.CheckDetachedSignature(ring, bytes.NewReader(sums), bytes.NewReader(sig), nil)
	if errors.Is(err, pgperrors.ErrUnknownIssuer) {
		return "", fmt.Errorf("it was signed by a key the registry does not list for this provider (it lists %s)", keyIDs(keys))
	}
	if err != nil && bytes.HasPrefix(bytes.TrimSpace(sig), []byte("-----BEGIN")) {
		signer, err = openpgp.CheckArmoredDetachedSignature(ring, bytes.NewReader(sums), bytes.NewReader(sig), nil)
	}
	if err != nil {
		return "", err
	}
	return signer.PrimaryKey.KeyIdString(), nil
}

func keyIDs(keys []SigningKey) string {
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = k.KeyID
	}
	return strings.Join(ids, ", ")
}

// parseSums reads a SHA256SUMS file: "HEX  NAME" lines.
func parseSums(b []byte) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 || len(fields[0]) != 64 {
			return nil, fmt.Errorf("line %q is not HEX-SHA256 and a file name", sc.Text())
		}
		if _, err := hex.DecodeString(fields[0]); err != nil {
			return nil, fmt.Errorf("line %q is not HEX-SHA256 and a file name", sc.Text())
		}
		out[fields[1]] = strings.ToLower(fields[0])
	}
	return out, sc.Err()
}

// getAll GETs a small file whole.
func (r *Registry) getAll(ctx context.Context, u, host string) ([]byte, error) {
	body, err := r.get(ctx, u, host)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	return io.ReadAll(io.LimitReader(body, 1<<20))
}

// download saves a zip into dir and checks its SHA-256 against want.
func (r *Registry) download(ctx context.Context, u, host, dir, want string) (string, error) {
	path, got, err := r.save(ctx, u, host, dir)
	if err != nil {
		return "", err
	}
	if !strings.EqualFold(got, want) {
		return "", fmt.Errorf("the downloaded zip %s has SHA-256 %s, but its signed checksum is %s: it was changed or corrupted", u, got, want)
	}
	return path, nil
}

// save downloads a zip into dir and returns its path and hex SHA-256.
func (r *Registry) save(ctx context.Context, u, host, dir string) (string, string, error) {
	resp, err := r.send(ctx, u, host, "")
	if err == nil && resp.StatusCode != 200 {
		resp.Body.Close()
		err = fmt.Errorf("%s answered %s", u, resp.Status)
	}
	if err != nil {
		return "", "", fmt.Errorf("downloading %s: %w", u, err)
	}
	defer resp.Body.Close()
	f, err := os.CreateTemp(dir, "package-*")
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	h := sha256.New()
	var w io.Writer = io.MultiWriter(f, h)
	if r.Progress != nil {
		bar, done := r.Progress(path.Base(resp.Request.URL.Path), resp.ContentLength)
		defer done()
		w = io.MultiWriter(w, bar)
	}
	if _, err := io.Copy(w, resp.Body); err != nil {
		return "", "", fmt.Errorf("downloading %s: %w", u, err)
	}
	return f.Name(), hex.EncodeToString(h.Sum(nil)), f.Close()
}
