package component_test

import (
	"fmt"
	"testing"
)

// site is a program using the plugin's component with the given inputs.
func site(items, label, zone string) string {
	return fmt.Sprintf(`name: comps
resources:
  web:
    type: comp:index:Site
    properties:
      items: %s
      label: %s
      zone: %s
outputs:
  paths: ${web.paths}
`, items, label, zone)
}

// TestComponentLifecycle creates a component's children, updates one in
// place, replaces them, and deletes them with the component.
func TestComponentLifecycle(t *testing.T) {
	p := newProject(t)
	p.program(site("[a, b]", "one", "east"))
	up := p.run("up", "--yes")
	t.Log(up.Output())
	t.Log(p.run("state", "ls").Output())
	t.Log(p.run("stack", "output").Output())
}
