# State carries from run to run: the second run updates what the first
# created, and refers to the first run's outputs.
run "first" {
  variables {
    name = "one"
    size = 3
  }
  assert {
    condition     = output.label == "one-3"
    error_message = "The label is wrong."
  }
}

run "second" {
  variables {
    name = "two"
    size = length(run.first.suffix)
  }
  assert {
    condition     = output.label == "two-3"
    error_message = "The label did not follow the first run."
  }
  assert {
    condition     = run.first.suffix == output.suffix
    error_message = "The suffix was replaced although its length stayed."
  }
}
