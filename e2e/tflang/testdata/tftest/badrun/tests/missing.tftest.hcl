run "holds" {
  command = plan
  expect_failures = [output.echo]
}
