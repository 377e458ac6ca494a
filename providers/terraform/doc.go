// Package terraform is the built-in provider Terraform configurations
// get without declaring it: the terraform_data resource (a value kept in
// state, replaced when triggers_replace changes) and the
// terraform_remote_state data source (the root outputs of another
// configuration's state, local backend only). It is written with
// plinth's provider SDK and runs in process; internal/cli registers it
// as the built-in package "terraform", which the Terraform format's type
// names terraform_data and terraform_remote_state map to.
//
// It leaves out every remote backend (s3, gcs, http, remote, ...):
// terraform_remote_state says which backends it reads and how to fix a
// configuration that names another.
package terraform
