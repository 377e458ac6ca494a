package provider

// Pure is implemented by a provider that runs inside plinth's process and
// knows which of its resource types are pure: their create, update and
// delete compute in memory and act on nothing outside plinth's state (no
// command, file, network call or wait). Such a step cannot have an unknown
// outcome: if plinth dies before its record is durable, the step never
// happened, and running it again is harmless. The engine therefore records
// it with one entry after the call instead of a begin before and an end
// after (see the engine's journal brackets).
//
// A provider in another process never implements Pure: what it does
// cannot be known from here, however it declares itself.
type Pure interface {
	// Pure reports whether typ (a type token) is pure.
	Pure(typ string) bool
}

// IsPure reports whether p declares typ pure (see Pure).
func IsPure(p Provider, typ string) bool {
	d, ok := p.(Pure)
	return ok && d.Pure(typ)
}
