mock_provider "aws" {}

run "a" {}
