package tfplugin5

import (
	"testing"

	"github.com/plinth-iac/plinth/internal/tfplugintest"
)

// The descriptors must live under plinth's own names so that they never
// collide with terraform-plugin-go's copy in one binary.
func TestRegisteredUnderPlinthNames(t *testing.T) { tfplugintest.CheckRegistration(t, 5) }

// On the wire the service keeps Terraform's name.
func TestWireServiceName(t *testing.T) {
	if got, want := Provider_ServiceDesc.ServiceName, "tfplugin5.Provider"; got != want {
		t.Errorf("service name %q, want %q", got, want)
	}
	if got, want := Provider_GetSchema_FullMethodName, "/tfplugin5.Provider/GetSchema"; got != want {
		t.Errorf("method name %q, want %q", got, want)
	}
}

// The committed code must be what gen.sh makes of the committed .proto.
func TestGeneratedCodeUpToDate(t *testing.T) { tfplugintest.CheckGeneratedUpToDate(t, 5) }
