package pulumistate

import (
	"encoding/json"
	"fmt"
	"strings"
)

// featureTaint is the deployment feature Pulumi declares when a resource
// is tainted (pkg/resource/stack's ApplyFeatures): a CLI that does not
// know it refuses the deployment instead of dropping the taint.
const featureTaint = "taint"

// knownFeatures are the deployment features (version 4) whose fields
// plinth reads resource by resource: taint it maps; the others are
// refused or left out with a note by unmapped. byteString (strings that
// are not UTF-8) is not among them: plinth's values cannot hold such a
// string.
var knownFeatures = map[string]bool{
	featureTaint: true, "refreshBeforeUpdate": true, "views": true, "hooks": true,
	"replaceWith": true, "snippets-prototype": true, "extensionParameterization": true,
}

// checkFeatures refuses a deployment that needs features plinth does
// not know.
func checkFeatures(features []string) error {
	var unknown []string
	for _, f := range features {
		if !knownFeatures[f] {
			unknown = append(unknown, f)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("it needs the deployment features %s, which plinth does not know", strings.Join(unknown, ", "))
	}
	return nil
}

// untypedWithFeatures wraps a deployment as Pulumi would write it: of
// version 3, or of version 4 with the features it uses (a tainted
// resource), so that a pulumi CLI that does not know them refuses it
// rather than losing them.
func untypedWithFeatures(d Deployment, raw json.RawMessage) Untyped {
	for _, r := range d.Resources {
		if r.Taint {
			return Untyped{Version: VersionWithFeatures, Features: []string{featureTaint}, Deployment: raw}
		}
	}
	return Untyped{Version: Version, Deployment: raw}
}
