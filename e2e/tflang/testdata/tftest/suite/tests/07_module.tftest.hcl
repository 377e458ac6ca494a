# A run can test another module; its outputs feed the next run.
run "setup" {
  module {
    source = "./testing/setup"
  }
  variables {
    seed = "abc"
  }
  assert {
    condition     = output.seed == "ABC"
    error_message = "The seed is wrong."
  }
}

run "main" {
  variables {
    name = lower(run.setup.seed)
  }
  assert {
    condition     = output.label == "abc-2"
    error_message = "The label does not use the seed."
  }
}
