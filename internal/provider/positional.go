package provider

// PositionalArgs is the one argument of an InvokeRequest that calls a
// function by position rather than by parameter name: an array of the
// arguments in order, as the Terraform language writes a
// provider-defined function call (provider::time::rfc3339_parse(ts)).
// Providers whose functions take positional arguments (Terraform
// providers, through CallFunction) accept it.
const PositionalArgs = "__args"
