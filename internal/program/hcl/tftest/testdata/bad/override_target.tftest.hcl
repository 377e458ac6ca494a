override_resource {
  target = aws_s3_bucket.b[0]
}
