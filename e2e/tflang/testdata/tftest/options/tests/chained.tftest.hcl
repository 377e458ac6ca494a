# A run's variables come from an earlier run's outputs; a failing
# precondition is an expected failure; a postcondition checks an
# applied value.
run "setup" {
  variables {
    prefix = "chain"
  }
}

run "from_setup" {
  variables {
    prefix   = "${run.setup.items[0]}x"
    count_of = length(run.setup.items)
  }
  assert {
    condition     = output.items == ["chain-0x-0", "chain-0x-1"]
    error_message = "items are ${jsonencode(output.items)}."
  }
  assert {
    condition     = output.joined == "chain-0x-0,chain-0x-1"
    error_message = "joined is ${output.joined}."
  }
}

run "too_many" {
  command = plan
  variables {
    count_of = 4
  }
  expect_failures = [terraform_data.items]
}

run "too_many_unexpected" {
  command = plan
  variables {
    count_of = 5
  }
}

run "after_failure" {
  assert {
    condition     = length(output.items) == 2
    error_message = "Wrong number of items."
  }
}
