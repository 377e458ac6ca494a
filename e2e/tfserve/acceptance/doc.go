// Package acceptance runs HashiCorp's acceptance framework
// (terraform-plugin-testing's helper/resource) on plinth's built-in
// provider served in process by sdk/provider/tfserve, over protocols 5
// and 6: every built-in resource is created, imported and verified,
// updated, replaced and destroyed by the real terraform CLI, which checks
// every plan and apply against its own rules and requires an empty plan
// after each step. The same is done for the example provider
// (examples/provider): every SDK feature it uses, expected errors naming
// attribute paths (and the source line terraform shows), its functions
// and its ephemeral resource.
//
// It is a package of its own so that its test binary links tfserve (and
// terraform-plugin-go's servers) without plinth's Terraform client, which
// e2e/tfserve's other tests link. The tests need terraform on PATH (or
// TF_ACC_TERRAFORM_PATH) and are skipped in -short mode.
package acceptance
