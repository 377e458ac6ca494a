run "a" {
  override_resource {
    target          = aws_s3_bucket.b
    override_during = later
  }
}
