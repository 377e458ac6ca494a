run "nothing_there" {
  command = plan
  expect_failures = [var.input, var.nope]
}
