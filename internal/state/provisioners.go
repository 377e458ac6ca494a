package state

import (
	"fmt"
	"time"
)

// provisioners encodes destroy-time provisioners; their configurations are
// values like a resource's inputs (secrets sealed).
func (enc *valueEncoder) provisioners(ps []Provisioner) ([]provisionerJSON, error) {
	var out []provisionerJSON
	for i, p := range ps {
		cfg, err := enc.rawObject(p.Config)
		if err != nil {
			return nil, fmt.Errorf("%d (%s): config: %w", i, p.Type, err)
		}
		conn, err := enc.rawObject(p.Connection)
		if err != nil {
			return nil, fmt.Errorf("%d (%s): connection: %w", i, p.Type, err)
		}
		pj := provisionerJSON{Type: p.Type, Config: cfg, Connection: conn, Continue: p.Continue}
		if p.Timeout > 0 {
			pj.Timeout = p.Timeout.String()
		}
		out = append(out, pj)
	}
	return out, nil
}

// decodeProvisioners reads destroy-time provisioners back.
func decodeProvisioners(pjs []provisionerJSON, c Crypter) ([]Provisioner, error) {
	var out []Provisioner
	for i, pj := range pjs {
		p := Provisioner{Type: pj.Type, Continue: pj.Continue}
		var err error
		if p.Config, err = decodeObject(pj.Config, c); err != nil {
			return nil, fmt.Errorf("%d (%s): config: %w", i, pj.Type, err)
		}
		if p.Connection, err = decodeObject(pj.Connection, c); err != nil {
			return nil, fmt.Errorf("%d (%s): connection: %w", i, pj.Type, err)
		}
		if pj.Timeout != "" {
			if p.Timeout, err = time.ParseDuration(pj.Timeout); err != nil {
				return nil, fmt.Errorf("%d (%s): timeout: %w", i, pj.Type, err)
			}
		}
		out = append(out, p)
	}
	return out, nil
}
