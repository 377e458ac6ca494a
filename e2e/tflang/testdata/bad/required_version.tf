# want: main.tf:3:22 Unsupported Terraform Core version
terraform {
  required_version = "< 1.0"
}
