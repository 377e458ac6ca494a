provider "aws" {
  region = "eu-west-1"
}

run "a" {}
