run "a" {
  expect_failures = var.name
}
