package tfplugin

import (
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/internal/provider"
)

// Diagnostic is an error or warning a Terraform provider reported, with the
// property it concerns in plinth's path syntax ("" when it concerns no one
// property).
type Diagnostic struct {
	Warning  bool
	Property string
	Summary  string
	Detail   string
}

func (d Diagnostic) String() string {
	text := d.Summary
	if d.Detail != "" {
		text = joinNonEmpty(": ", d.Summary, d.Detail)
	}
	if d.Property != "" {
		return "property " + d.Property + ": " + text
	}
	return text
}

// Error reports the error diagnostics of one provider call.
type Error struct {
	Provider    string // provider name, e.g. "random"
	Operation   string // e.g. "Create of random_pet.name"
	Diagnostics []Diagnostic
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "provider %s reported an error during %s", e.Provider, e.Operation)
	if len(e.Diagnostics) == 1 {
		b.WriteString(": " + e.Diagnostics[0].String())
		return b.String()
	}
	for _, d := range e.Diagnostics {
		b.WriteString("\n  - " + d.String())
	}
	return b.String()
}

var _ provider.DiagnosticError = (*Error)(nil)

// Summary is the provider's summary of its one error diagnostic, or ""
// when it reported several.
func (e *Error) Summary() string {
	if len(e.Diagnostics) != 1 {
		return ""
	}
	return e.Diagnostics[0].Summary
}

// Detail is the provider's detail of its one error diagnostic, or ""
// when it reported several.
func (e *Error) Detail() string {
	if len(e.Diagnostics) != 1 {
		return ""
	}
	return e.Diagnostics[0].Detail
}

// reasons lists the diagnostics as texts, for InitError.
func (e *Error) reasons() []string {
	out := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		out[i] = d.String()
	}
	return out
}

func publicDiagnostic(d diagnostic) Diagnostic {
	return Diagnostic{
		Warning:  d.severity == severityWarning,
		Property: propertyPath(d.path).String(),
		Summary:  strings.TrimSpace(d.summary),
		Detail:   strings.TrimSpace(d.detail),
	}
}

// diagnose hands warnings to the configured Warn function and returns the
// errors as an *Error, or nil if there are none.
func (p *Provider) diagnose(op string, diags []diagnostic) error {
	var errs []Diagnostic
	for _, d := range diags {
		pd := publicDiagnostic(d)
		if pd.Warning {
			if p.cfg.Warn != nil {
				p.cfg.Warn(fmt.Sprintf("provider %s warned during %s: %s", p.cfg.Name, op, pd))
			}
			continue
		}
		errs = append(errs, pd)
	}
	if len(errs) == 0 {
		return nil
	}
	return &Error{Provider: p.cfg.Name, Operation: op, Diagnostics: errs}
}

// failures turns error diagnostics into per-property check failures and
// hands warnings on.
func (p *Provider) failures(op string, diags []diagnostic) []provider.CheckFailure {
	var out []provider.CheckFailure
	err, _ := p.diagnose(op, diags).(*Error)
	if err == nil {
		return nil
	}
	for _, d := range err.Diagnostics {
		out = append(out, provider.CheckFailure{Property: d.Property, Reason: joinNonEmpty(": ", d.Summary, d.Detail)})
	}
	return out
}
