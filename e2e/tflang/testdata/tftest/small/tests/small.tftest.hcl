run "plan" {
  command = plan
}

run "apply" {
  assert {
    condition     = output.echo == "hi"
    error_message = "The echo is wrong."
  }
}
