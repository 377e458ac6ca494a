// Package provisioner holds plinth's built-in provisioners, local-exec and
// file, which run in process, and Source, which finds a provisioner by its
// type: a built-in, else a plugin (terraform-provisioner-NAME) started
// through a launcher the caller supplies.
//
// It leaves out what a provisioner runs against: it is handed an
// evaluated configuration, and the engine (internal/engine) decides when
// provisioners run and what a failure means. Its neighbours are
// internal/provider (the Provisioner interface) and the plugin launcher in
// internal/provider/tfplugin.
package provisioner
