package tfserve

import (
	"strings"
	"unicode"
)

// snake converts a property name to Terraform's attribute style:
// "createDuration" is "create_duration", "sha256" stays, "URLPath" is
// "url_path".
func snake(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			nextLower := i > 0 && i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])
			if prevLower || nextLower {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		if r == '-' || r == '.' {
			r = '_'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// camel converts a Terraform attribute name back to lower camel case, for
// state written by an older schema whose names this one no longer has.
func camel(name string) string {
	parts := strings.Split(name, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// typeName is the Terraform type name of an SDK type token: the package,
// the module unless it is "index", and the type in snake case
// ("plinth:random:Pet" is plinth_random_pet, "pets:index:Dog" pets_dog).
func typeName(token string) string {
	parts := strings.Split(token, ":")
	out := []string{parts[0]}
	if len(parts) == 3 && parts[1] != "index" {
		out = append(out, snake(strings.ReplaceAll(parts[1], "/", "_")))
	}
	return strings.Join(append(out, snake(parts[len(parts)-1])), "_")
}

// functionName is the Terraform name of an SDK function token: the
// module unless it is "index", then the name, in snake case
// ("plinth:index:getEnv" is get_env, called provider::plinth::get_env).
func functionName(token string) string {
	parts := strings.Split(token, ":")
	name := snake(parts[len(parts)-1])
	if len(parts) == 3 && parts[1] != "index" {
		return snake(strings.ReplaceAll(parts[1], "/", "_")) + "_" + name
	}
	return name
}

// summaryOf is the first sentence of a description, for a function's
// summary.
func summaryOf(doc string) string {
	if i := strings.Index(doc, ". "); i > 0 {
		return doc[:i+1]
	}
	return doc
}
