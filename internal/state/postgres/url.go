package postgres

import (
	"net/url"
	"strings"
)

// IsURL reports whether s names a PostgreSQL database.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Redact returns the URL with any password replaced by xxxxx, for
// messages: a password in the user part or in a password= parameter.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "a PostgreSQL URL that cannot be parsed"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// password returns the URL's password, "" if it has none.
func password(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	if p, ok := u.User.Password(); ok {
		return p
	}
	return u.Query().Get("password")
}

// redactedError is an error whose text had the password removed. It
// still unwraps to the original, for errors.Is and errors.As.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// scrub removes the password from err's text.
func (b *Backend) scrub(err error) error {
	if err == nil || b.password == "" || !strings.Contains(err.Error(), b.password) {
		return err
	}
	return &redactedError{msg: strings.ReplaceAll(err.Error(), b.password, "xxxxx"), err: err}
}
