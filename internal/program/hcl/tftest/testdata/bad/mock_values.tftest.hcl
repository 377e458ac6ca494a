mock_provider "aws" {
  mock_resource "aws_s3_bucket" {
    defaults = "bucket"
  }
}
