# An expected failure that does not happen is reported even when
# something else failed.
run "other_error" {
  command = plan
  variables {
    name = "much-too-long"
  }
  expect_failures = [terraform_data.guarded]
}
