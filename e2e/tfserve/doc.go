// Package tfserve holds end-to-end tests of providers written with
// plinth's SDK and served to Terraform by sdk/provider/tfserve:
// cmd/terraform-provider-plinth (plinth's built-in providers) and a test
// provider (internal/terraform-provider-plinthtest, two schema versions, a
// sensitive attribute, a panicking resource), built with `go build` and
// driven by the real terraform CLI through dev_overrides (no registry, no
// network) over protocols 6 and 5, and by plinth itself through its
// Terraform adapter, so the SDK -> tfplugin -> engine path is tested from
// both ends.
//
// It has no code outside its tests. It never imports tfserve: the test
// binary links plinth's own Terraform client (through internal/cli), whose
// generated protocol code cannot share a binary with terraform-plugin-go's
// servers; deps_test.go checks that boundary with `go list`.
//
// Tests that need terraform skip when it is not on PATH; none run in
// -short mode, since they build binaries.
package tfserve
