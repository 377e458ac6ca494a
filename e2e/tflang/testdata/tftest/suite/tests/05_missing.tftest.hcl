# An expected failure that does not happen fails the run, and the rest
# are skipped.
run "no_failure" {
  command = plan
  expect_failures = [var.name]
}

run "skipped" {
  command = plan
}
