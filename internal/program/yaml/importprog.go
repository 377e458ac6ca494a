package yaml

import (
	"fmt"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/program"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// ImportRequest builds the request for engine.Import: the type
// normalized, and the version constraint of the package's providers-block
// provider, if the program has one. engine.Import uses the default
// provider; to import through the providers-block provider with its
// config, run ImportProgram instead.
func (p *Project) ImportRequest(typ, name, id string) (engine.ImportRequest, error) {
	reg, err := program.ImportRegistration(typ, name, id)
	if err != nil {
		return engine.ImportRequest{}, err
	}
	req := engine.ImportRequest{Type: reg.Type, Name: name, ID: id}
	_, pkg, _ := program.NormalizeType(typ)
	if j, ok := p.defaultProviders[pkg]; ok {
		req.Version = p.nodes[j].res.opts.version
	}
	return req, nil
}

// ImportProgram returns a program that registers only the imported
// resource, through the project's providers-block provider for its package
// if it has one. It sets no stack outputs.
func (p *Project) ImportProgram(config map[string]resource.Value, opts program.Options, typ, name, id string) (*Evaluator, error) {
	reg, err := program.ImportRegistration(typ, name, id)
	if err != nil {
		return nil, err
	}
	_, pkg, _ := program.NormalizeType(typ)
	q := &Project{file: p.file, dir: p.dir, name: p.name, description: p.description,
		config: p.config, configByKey: p.configByKey, importOnly: true}
	for _, d := range p.resources {
		if d.fromBlock && d.pkg == pkg {
			c := *d
			q.resources = append(q.resources, &c)
		}
	}
	q.resources = append(q.resources, &resourceDecl{key: name, name: name, where: joinPath("import", name),
		typ: typ, token: reg.Type, pkg: pkg,
		opts: &resourceOptions{importID: &expr{kind: exprLiteral, lit: resource.NewString(id), where: "import"}}})
	r := &reader{diags: &diags{file: p.file}, budget: aliasAllowance}
	q.buildGraph(r)
	if err := asError(r.list); err != nil {
		return nil, fmt.Errorf("importing %q: the providers block cannot be used alone: %w", name, err)
	}
	return q.Program(config, opts)
}
