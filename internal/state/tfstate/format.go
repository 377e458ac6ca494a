package tfstate

import "encoding/json"

// FormatVersion is the only Terraform state format this package reads and
// writes (Terraform 0.12 and later).
const FormatVersion = 4

// State is a Terraform state file, format version 4, field for field.
type State struct {
	Version          int                `json:"version"`
	TerraformVersion string             `json:"terraform_version"`
	Serial           uint64             `json:"serial"`
	Lineage          string             `json:"lineage"`
	Outputs          map[string]*Output `json:"outputs"`
	Resources        []*Resource        `json:"resources"`
	CheckResults     json.RawMessage    `json:"check_results"`
}

// Output is a root module output value.
type Output struct {
	Value     json.RawMessage `json:"value"`
	Type      json.RawMessage `json:"type"`
	Sensitive bool            `json:"sensitive,omitempty"`
}

// Resource is every instance of one resource block in one module instance.
type Resource struct {
	Module    string      `json:"module,omitempty"`
	Mode      string      `json:"mode"`
	Type      string      `json:"type"`
	Name      string      `json:"name"`
	Each      string      `json:"each,omitempty"`
	Provider  string      `json:"provider"`
	Instances []*Instance `json:"instances"`
}

// Instance is one object: current (Deposed empty) or deposed.
type Instance struct {
	IndexKey            json.RawMessage   `json:"index_key,omitempty"`
	Status              string            `json:"status,omitempty"`
	Deposed             string            `json:"deposed,omitempty"`
	SchemaVersion       int64             `json:"schema_version"`
	Attributes          json.RawMessage   `json:"attributes,omitempty"`
	AttributesFlat      map[string]string `json:"attributes_flat,omitempty"`
	SensitiveAttributes json.RawMessage   `json:"sensitive_attributes,omitempty"`
	// Identity fields are written by Terraform 1.12 and later; plinth
	// reads past them (the provider re-reads the object).
	IdentitySchemaVersion *int64          `json:"identity_schema_version,omitempty"`
	Identity              json.RawMessage `json:"identity,omitempty"`
	Private               string          `json:"private,omitempty"`
	Dependencies          []string        `json:"dependencies,omitempty"`
	// DependsOn is the name Terraform 0.12 used for Dependencies.
	DependsOn           []string `json:"depends_on,omitempty"`
	CreateBeforeDestroy bool     `json:"create_before_destroy,omitempty"`
}

// pathStep is one step of a sensitive attribute path.
type pathStep struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// typedValue is an index step's key.
type typedValue struct {
	Value json.RawMessage `json:"value"`
	Type  string          `json:"type"`
}
