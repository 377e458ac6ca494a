# The real data source, read in a plan run, and a wrong assertion.
variables {
  prefix = "rd"
}

run "reads" {
  command = plan
  assert {
    condition     = output.readme == "real readme"
    error_message = "The readme is ${output.readme}."
  }
}

run "wrong" {
  command = plan
  assert {
    condition     = output.readme == "fake"
    error_message = "The readme is ${output.readme}, not fake."
  }
}
