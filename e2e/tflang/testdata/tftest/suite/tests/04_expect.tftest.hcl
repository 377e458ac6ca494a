# Expected failures: a variable's validation and an output's precondition
# in plan runs, a check block in an apply run.
run "long_name" {
  command = plan
  variables {
    name = "much-too-long"
  }
  expect_failures = [var.name]
}

run "too_big" {
  command = plan
  variables {
    size = 12
  }
  expect_failures = [output.doubled, check.small]
}

run "checked" {
  variables {
    size = 7
  }
  expect_failures = [check.small]
}
