// Package provserve serves a provisioner written with the SDK
// (sdk/provider.Provisioner) as a Terraform provisioner plugin over the
// tfplugin5 Provisioner service (GetSchema, ValidateProvisionerConfig,
// ProvisionResource streaming its output, Stop), with go-plugin, so that
// plinth or terraform drives it out of process. A plugin's main package is
// one line:
//
//	func main() { provserve.Serve(myprov.New()) }
//
// and its binary is named terraform-provisioner-NAME.
//
// Why a package of its own: terraform-plugin-go has no provisioner server,
// and its generated tfplugin5 types are internal to it, so this package
// serves plinth's own generated tfplugin5 (sdk/tfplugin5). The two
// register the same protobuf names and panic if linked into one binary
// (docs/architecture.md, ../shared/DESIGN.md), so a provisioner plugin
// must not also link sdk/provider/tfserve: provisioners and providers are
// separate binaries, as Terraform has them.
//
// Configuration values are decoded by the schema Config describes; the
// connection, which Terraform sends by its own fixed schema, is decoded
// as whatever object it is.
package provserve
