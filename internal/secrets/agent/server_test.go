package agent

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plinth-iac/plinth/internal/secrets"
)

var (
	testSalt = []byte("0123456789abcdef")
	testKDF  = secrets.KDFParams{Time: 3, Memory: 64 * 1024, Threads: 4}
	testKey  = bytes.Repeat([]byte{7}, secrets.KeySize)
)

func keepReq(salt []byte, pass string, key []byte, ttl time.Duration) *request {
	return &request{Op: opKeep, Salt: salt, KDF: testKDF, Passphrase: []byte(pass), Key: key, TTL: ttl}
}

func keyReq(salt []byte, kdf secrets.KDFParams, pass string) *request {
	return &request{Op: opKey, Salt: salt, KDF: kdf, Passphrase: []byte(pass)}
}

// TestKeyNeedsTheSamePassphraseSaltAndCost: the agent hands a key only to
// a request with the passphrase, salt and cost parameters it was kept
// with, and a wrong passphrase makes it drop the key.
func TestKeyNeedsTheSamePassphraseSaltAndCost(t *testing.T) {
	cases := map[string]struct {
		ask       *request
		hit, kept bool // the answer; whether the right passphrase still hits after
	}{
		"same passphrase, salt and cost": {keyReq(testSalt, testKDF, "right"), true, true},
		"wrong passphrase":               {keyReq(testSalt, testKDF, "wrong"), false, false},
		"empty passphrase":               {keyReq(testSalt, testKDF, ""), false, false},
		"passphrase with a suffix":       {keyReq(testSalt, testKDF, "right "), false, false},
		"other salt":                     {keyReq([]byte("fedcba9876543210"), testKDF, "right"), false, true},
		"other time cost":                {keyReq(testSalt, secrets.KDFParams{Time: 2, Memory: 64 * 1024, Threads: 4}, "right"), false, true},
		"other memory cost":              {keyReq(testSalt, secrets.KDFParams{Time: 3, Memory: 32 * 1024, Threads: 4}, "right"), false, true},
		"other lanes":                    {keyReq(testSalt, secrets.KDFParams{Time: 3, Memory: 64 * 1024, Threads: 1}, "right"), false, true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := NewServer(0)
			if r := s.handle(keepReq(testSalt, "right", testKey, time.Minute)); r.Error != "" {
				t.Fatal(r.Error)
			}
			want := response{}
			if tc.hit {
				want.Key = testKey
			}
			if diff := cmp.Diff(want, s.handle(tc.ask)); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			again := s.handle(keyReq(testSalt, testKDF, "right"))
			if got := again.Key != nil; got != tc.kept {
				t.Errorf("the right passphrase hits afterwards: %v, want %v", got, tc.kept)
			}
		})
	}
}

// TestKeysExpireAfterTheirLastUse: each use renews a key's TTL; unused
// for the TTL, it is gone.
func TestKeysExpireAfterTheirLastUse(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewServer(0)
	s.Now = func() time.Time { return now }
	s.handle(keepReq(testSalt, "right", testKey, 10*time.Minute))
	var got []bool
	for _, after := range []time.Duration{9 * time.Minute, 9 * time.Minute, 10 * time.Minute} {
		now = now.Add(after)
		got = append(got, s.handle(keyReq(testSalt, testKDF, "right")).Key != nil)
	}
	if diff := cmp.Diff([]bool{true, true, false}, got); diff != "" {
		t.Errorf("hits after 9, 18 and 28 minutes (-want +got):\n%s", diff)
	}
	if n := s.Len(); n != 0 {
		t.Errorf("the agent holds %d keys after they expired, want 0", n)
	}
}

// TestForgetDropsEveryKey: forget drops all keys and says how many.
func TestForgetDropsEveryKey(t *testing.T) {
	s := NewServer(0)
	s.handle(keepReq(testSalt, "a", testKey, time.Minute))
	s.handle(keepReq([]byte("another salt...."), "b", testKey, time.Minute))
	if r := s.handle(&request{Op: opForget}); r.Forgot != 2 || s.Len() != 0 {
		t.Errorf("forget dropped %d keys and left %d, want 2 and 0", r.Forgot, s.Len())
	}
}

// TestKeepRefusesAnIncompleteKey: a keep without a key of the right
// length, a salt or a passphrase is refused, never held.
func TestKeepRefusesAnIncompleteKey(t *testing.T) {
	for name, req := range map[string]*request{
		"short key":     keepReq(testSalt, "right", testKey[:16], time.Minute),
		"no salt":       keepReq(nil, "right", testKey, time.Minute),
		"no passphrase": keepReq(testSalt, "", testKey, time.Minute),
	} {
		s := NewServer(0)
		if r := s.handle(req); r.Error == "" || s.Len() != 0 {
			t.Errorf("%s: error %q and %d keys held, want an error and none", name, r.Error, s.Len())
		}
	}
}
