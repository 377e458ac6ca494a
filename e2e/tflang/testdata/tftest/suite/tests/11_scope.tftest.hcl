# Assertions see locals, variables, sensitive outputs and resources.
run "scope" {
  command = plan
  assert {
    condition     = local.shout == "PLINTH"
    error_message = "The local is wrong."
  }
  assert {
    condition     = var.size == 2
    error_message = "The variable is wrong."
  }
  assert {
    condition     = output.secret == "s3cret-plinth"
    error_message = "The secret is wrong."
  }
  assert {
    condition     = terraform_data.guarded.input == "PLINTH"
    error_message = "The guarded input is wrong."
  }
}

run "banned" {
  command = plan
  variables {
    name = "banned"
  }
  expect_failures = [terraform_data.guarded]
}

run "forbidden_unexpected" {
  command = plan
  variables {
    name = "banned"
  }
}

run "never" {
  command = plan
}
