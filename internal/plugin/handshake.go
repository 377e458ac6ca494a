package plugin

import (
	"fmt"
	"time"
)

// HandshakeTimeoutEnv names the environment variable that bounds how long
// plinth waits for a plugin it started to announce itself (print its port,
// or go-plugin's handshake line) and answer; DefaultHandshakeTimeout if it
// is unset.
const HandshakeTimeoutEnv = "PLINTH_PLUGIN_HANDSHAKE_TIMEOUT"

// DefaultHandshakeTimeout is the wait for a plugin to start.
const DefaultHandshakeTimeout = 10 * time.Second

// HandshakeTimeout reads HandshakeTimeoutEnv through getenv: a Go duration
// ("30s", "2m") or a number of seconds.
func HandshakeTimeout(getenv func(string) string) (time.Duration, error) {
	s := getenv(HandshakeTimeoutEnv)
	if s == "" {
		return DefaultHandshakeTimeout, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		var secs float64
		if _, serr := fmt.Sscanf(s, "%g", &secs); serr == nil && fmt.Sprint(secs) == s {
			d, err = time.Duration(secs*float64(time.Second)), nil
		}
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q is not a positive duration: write it as 30s or 2m", HandshakeTimeoutEnv, s)
	}
	return d, nil
}
