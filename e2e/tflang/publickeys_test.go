package tflang

import (
	"strings"
	"testing"
)

// TestPublicKeysShownWhole: the public keys of tls_private_key are shown
// whole in the apply's outputs and in the destroy plan, as terraform
// shows them; the scrubber masked parts of the RSA public_key_openssh
// and the ECDSA public_key_pem that equal lines of the private keys.
// The private keys appear nowhere.
func TestPublicKeysShownWhole(t *testing.T) {
	needReal(t)
	p := newProject(t, "testdata/public_keys")
	up := p.must("up", "--yes").Output()
	outs := p.outputs()
	destroy := p.must("destroy", "--yes").Output()
	for name, text := range map[string]string{"up": up, "destroy": destroy} {
		if strings.Contains(text, "[secret]") {
			t.Errorf("plinth %s masked part of a value:\n%s", name, text)
		}
		for out, v := range outs {
			s, _ := v.(string)
			for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
				if !strings.Contains(text, line) {
					t.Errorf("plinth %s does not show %s whole: %q is missing:\n%s", name, out, line, text)
				}
			}
		}
		if strings.Contains(text, "PRIVATE KEY") {
			t.Errorf("plinth %s shows a private key:\n%s", name, text)
		}
	}
}
