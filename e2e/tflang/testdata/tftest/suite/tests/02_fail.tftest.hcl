# A false assertion fails its run; the runs after it still run.
run "wrong" {
  assert {
    condition     = output.name == "somebody else"
    error_message = "The name is ${output.name}."
  }
}

run "right" {
  assert {
    condition     = output.name == "plinth"
    error_message = "The name is ${output.name}."
  }
}
