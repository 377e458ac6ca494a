package program

import (
	"fmt"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ImportRegistration builds the registration for "plinth import TYPE NAME
// ID": a custom resource of the type (a token, or a Terraform type name
// such as random_pet) that adopts the existing resource with that ID.
func ImportRegistration(typ, name, id string) (engine.Registration, error) {
	token, _, err := NormalizeType(typ)
	if err != nil {
		return engine.Registration{}, fmt.Errorf("importing %q: %w", name, err)
	}
	if IsProviderType(token) {
		return engine.Registration{}, fmt.Errorf("importing %q: provider resources cannot be imported; declare the provider in the program instead", name)
	}
	if name == "" || id == "" {
		return engine.Registration{}, fmt.Errorf("importing a %s: both a resource name and an ID are needed", token)
	}
	return engine.Registration{Type: token, Name: name, Custom: true, Inputs: resource.Object{}, ImportID: id}, nil
}
