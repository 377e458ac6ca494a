run "wrong" {
  assert {
    condition     = output.echo == "bye"
    error_message = "The echo is ${output.echo}."
  }
}
