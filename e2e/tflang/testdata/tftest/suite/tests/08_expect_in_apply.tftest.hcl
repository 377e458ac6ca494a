# An expected failure while an apply run plans fails the run: the apply
# could not happen.
run "too_big" {
  variables {
    size = 12
  }
  expect_failures = [output.doubled, check.small]
}

run "skipped" {
  command = plan
}
