override_resource {
  target = module.a[0].aws_s3_bucket.b
}
