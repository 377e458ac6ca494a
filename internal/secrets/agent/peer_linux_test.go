package agent

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestAgentServesOnlyItsUser: the agent asks the kernel who connected
// (SO_PEERCRED) and answers only its own uid. This test's process cannot
// connect as another user, so it serves a Server that belongs to
// another uid (its UID field) and connects as itself: refused, while the
// same Server set to this uid answers.
func TestAgentServesOnlyItsUser(t *testing.T) {
	for name, tc := range map[string]struct {
		uid int
		hit bool
	}{
		"own uid":     {os.Getuid(), true},
		"another uid": {os.Getuid() + 1, false},
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "agent")
			if err := checkDir(dir, true); err != nil {
				t.Fatal(err)
			}
			s := NewServer(tc.uid)
			s.handle(keepReq(testSalt, "right", testKey, time.Minute))
			l, alive, err := listen(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { s.Serve(l, 10*time.Millisecond, alive); close(done) }()
			c := &Client{Dir: dir}
			if _, hit := c.Key(testSalt, testKDF, "right"); hit != tc.hit {
				t.Errorf("hit %v, want %v", hit, tc.hit)
			}
			if _, err := c.Forget(); (err == nil) != tc.hit {
				t.Errorf("forget: %v", err)
			}
			if !tc.hit {
				os.Remove(socketPath(dir)) // the agent, its socket gone, ends
			}
			<-done
		})
	}
}
