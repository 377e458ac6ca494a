// Package pulumistate reads and writes Pulumi deployments (`pulumi stack
// export`, version 3) and maps them to and from plinth's state.Snapshot.
// URNs keep their types and names; their stack and project become the
// target's. Values use the same JSON conventions as plinth's own state, so
// state.DecodeObject and state.EncodeObject do the work, with a Crypter
// for Pulumi's passphrase secrets provider (passphrase.go).
//
// The format's definition is github.com/pulumi/pulumi/sdk/v3/go/common/
// apitype (DeploymentV3); the structs here mirror the fields plinth maps,
// and the tests check them against apitype. Fields plinth has no place for
// are never dropped silently (unmapped.go): those that change what the
// next run does (hooks, replaceWith, views, ...) are refused, the rest
// (import IDs, aliases, source positions, ...) dropped with a note.
package pulumistate

import (
	"encoding/json"
	"time"
)

// Version is the deployment version read and written; a deployment that
// needs features (Untyped.Features) is VersionWithFeatures, as Pulumi
// writes it (its DeploymentSchemaVersionLatest).
const (
	Version             = 3
	VersionWithFeatures = 4
)

// Untyped is what `pulumi stack export` writes.
type Untyped struct {
	Version    int             `json:"version"`
	Features   []string        `json:"features,omitempty"`
	Deployment json.RawMessage `json:"deployment"`
}

// Deployment is apitype.DeploymentV3, the fields plinth maps.
type Deployment struct {
	Manifest          Manifest          `json:"manifest"`
	SecretsProviders  *SecretsProviders `json:"secrets_providers,omitempty"`
	Resources         []Resource        `json:"resources,omitempty"`
	PendingOperations []Operation       `json:"pending_operations,omitempty"`
}

// Manifest is apitype.ManifestV1.
type Manifest struct {
	Time    time.Time `json:"time"`
	Magic   string    `json:"magic"`
	Version string    `json:"version"`
}

// SecretsProviders is apitype.SecretsProvidersV1.
type SecretsProviders struct {
	Type  string          `json:"type"`
	State json.RawMessage `json:"state,omitempty"`
}

// Operation is apitype.OperationV2.
type Operation struct {
	Resource Resource `json:"resource"`
	Type     string   `json:"type"`
}

// Resource is apitype.ResourceV3, the fields plinth maps.
type Resource struct {
	URN                     string              `json:"urn"`
	Custom                  bool                `json:"custom"`
	Delete                  bool                `json:"delete,omitempty"`
	External                bool                `json:"external,omitempty"`
	ID                      string              `json:"id,omitempty"`
	Type                    string              `json:"type"`
	Inputs                  json.RawMessage     `json:"inputs,omitempty"`
	Outputs                 json.RawMessage     `json:"outputs,omitempty"`
	Parent                  string              `json:"parent,omitempty"`
	Protect                 bool                `json:"protect,omitempty"`
	Taint                   bool                `json:"taint,omitempty"`
	Dependencies            []string            `json:"dependencies,omitempty"`
	InitErrors              []string            `json:"initErrors,omitempty"`
	Provider                string              `json:"provider,omitempty"`
	PropertyDependencies    map[string][]string `json:"propertyDependencies,omitempty"`
	CustomTimeouts          *CustomTimeouts     `json:"customTimeouts,omitempty"`
	RetainOnDelete          bool                `json:"retainOnDelete,omitempty"`
	Created                 *time.Time          `json:"created,omitempty"`
	Modified                *time.Time          `json:"modified,omitempty"`
	IgnoreChanges           []string            `json:"ignoreChanges,omitempty"`
	ReplaceOnChanges        []string            `json:"replaceOnChanges,omitempty"`
	DeletedWith             string              `json:"deletedWith,omitempty"`
	AdditionalSecretOutputs []string            `json:"additionalSecretOutputs,omitempty"`
	// ResourceHooks name the resource's hooks by kind (BeforeDelete,
	// ...); plinth keeps those its delete runs (state.DeleteHooks), and
	// the program binds the others again on every run.
	ResourceHooks map[string][]string `json:"resourceHooks,omitempty"`
	// Unmapped are read to refuse or note them, never written.
	Unmapped
}

// CustomTimeouts is Pulumi's, in seconds.
type CustomTimeouts struct {
	Create float64 `json:"create,omitempty"`
	Update float64 `json:"update,omitempty"`
	Delete float64 `json:"delete,omitempty"`
}
