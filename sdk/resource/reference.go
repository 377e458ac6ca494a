package resource

import "fmt"

// Reference refers to another resource by URN. A custom resource's reference
// also carries its ID (a string, or unknown before the resource exists); a
// component's ID is nil. PackageVersion is the version of the provider that
// manages the resource, if known.
type Reference struct {
	URN            URN
	ID             *Value
	PackageVersion string
}

// Equal reports whether two references name the same resource and ID.
func (r Reference) Equal(s Reference) bool {
	if r.URN != s.URN || r.PackageVersion != s.PackageVersion {
		return false
	}
	if r.ID == nil || s.ID == nil {
		return r.ID == nil && s.ID == nil
	}
	return r.ID.Equal(*s.ID)
}

func (r Reference) String() string {
	if r.ID == nil {
		return fmt.Sprintf("ref(%s)", r.URN)
	}
	return fmt.Sprintf("ref(%s, id=%s)", r.URN, r.ID)
}
