mock_provider "aws" {
  override_resource {
    target = aws_s3_bucket.b
  }
}
