run "a" {
  expect_failures = [var.name, upper(var.name)]
}
