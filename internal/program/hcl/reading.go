package hcl

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// Reads of data sources and openings of ephemeral resources, as the
// display tells of them ("data.x.y: Reading...", "Read complete after
// 0s [id=...]"), and the diagnostic of a failed read.

// readingStarts tells the display that the read (or, eph, the opening)
// of the instance at addr starts, and returns when.
func (r *run) readingStarts(addr, token string, eph bool) time.Time {
	if r.opts.Reading != nil {
		r.opts.Reading(program.Reading{Address: addr, Type: token, Ephemeral: eph})
	}
	return time.Now()
}

// readingDone tells the display that the read (or opening) of the
// instance at addr, begun at start, completed with res.
func (r *run) readingDone(addr, token string, eph bool, start time.Time, res resource.Object) {
	if r.opts.Reading == nil {
		return
	}
	done := program.Reading{Address: addr, Type: token, Ephemeral: eph, Done: true, Duration: time.Since(start)}
	if id := res["id"]; !eph && !id.IsNull() {
		plain, secret := id.Unsecret()
		done.ID, done.SecretID = valueString(plain), secret
	}
	r.opts.Reading(done)
}

// valueString is a primitive value as text: a string as it is, a number
// or bool as written; "" for anything else.
func valueString(v resource.Value) string {
	switch v.Kind() {
	case resource.StringKind:
		return v.Str()
	case resource.NumberKind:
		return v.NumberLiteral()
	case resource.BoolKind:
		return fmt.Sprint(v.Bool())
	}
	return ""
}

// readFailure is the diagnostic's summary and detail for the failed read
// of the data source at addr of type token: the provider's own summary
// and detail, as terraform shows them, when it reported one diagnostic;
// else plinth's summary and the error, without the engine's "invoking
// TOKEN: " prefix (a type token users never wrote).
func readFailure(addr, token string, err error) (summary, detail string) {
	var pd providerDiagnostic
	if errors.As(err, &pd) && pd.Summary() != "" {
		detail = strings.TrimSpace(pd.Detail())
		if detail != "" {
			detail += "\n\n"
		}
		return pd.Summary(), detail + fmt.Sprintf("The provider reported this while reading %s.", addr)
	}
	msg := strings.TrimPrefix(err.Error(), "invoking "+token+": ")
	return "Failed to read data source", fmt.Sprintf("Reading %s failed: %s.", addr, strings.TrimSuffix(msg, "."))
}
