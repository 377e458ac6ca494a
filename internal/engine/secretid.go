package engine

import (
	"strings"

	"github.com/plinth-iac/plinth/internal/state"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// idFromSecret reports whether a resource's ID equals or contains a secret
// input: a string or number held in a secret anywhere in the inputs. Such
// an ID is itself secret (a name derived from a password, a path holding a
// token): the state stores it sealed, the display masks it, and `${r.id}`
// is secret. A secret shorter than minContained counts only when the ID
// equals it: a one-letter secret turns up by chance in one random
// six-character ID out of eleven.
func idFromSecret(id string, inputs resource.Object) bool {
	if id == "" || id == UnknownID {
		return false
	}
	for _, v := range inputs {
		if secretIn(id, v, false) {
			return true
		}
	}
	return false
}

func secretIn(id string, v resource.Value, secret bool) bool {
	switch v.Kind() {
	case resource.SecretKind:
		return secretIn(id, v.SecretElement(), true)
	case resource.StringKind:
		return secret && holds(id, v.Str())
	case resource.NumberKind:
		return secret && holds(id, v.NumberLiteral())
	case resource.ArrayKind:
		for _, e := range v.Array() {
			if secretIn(id, e, secret) {
				return true
			}
		}
	case resource.ObjectKind:
		for _, e := range v.Object() {
			if secretIn(id, e, secret) {
				return true
			}
		}
	}
	return false
}

// minContained is the shortest secret that makes an ID secret by being
// part of it.
const minContained = 4

// holds reports whether id is secret, or contains it and it is long
// enough not to be there by chance.
func holds(id, secret string) bool {
	if secret == "" {
		return false
	}
	return id == secret || len(secret) >= minContained && strings.Contains(id, secret)
}

// maskIDOutputs returns outputs with every top-level string that holds a
// secret ID made secret (Terraform resources report their ID again as the
// "id" attribute), so the ID is not stored or shown in the clear there.
func maskIDOutputs(outputs resource.Object, id string) resource.Object {
	var out resource.Object
	for k, v := range outputs {
		if v.Kind() == resource.StringKind && strings.Contains(v.Str(), id) {
			if out == nil {
				out = outputs.Copy()
			}
			out[k] = resource.MakeSecret(v)
		}
	}
	if out == nil {
		return outputs
	}
	return out
}

// markSecretID sets r.SecretID when its ID derives from a secret input (or
// already did), and masks the ID where its outputs repeat it.
func markSecretID(r *state.Resource, inputs resource.Object, already bool) {
	r.SecretID = already || idFromSecret(r.ID, inputs)
	if r.SecretID {
		r.Outputs = maskIDOutputs(r.Outputs, r.ID)
	}
}
