run "planned" {
  command = plan
  assert {
    condition     = output.echo == "hi"
    error_message = "never"
  }
}
