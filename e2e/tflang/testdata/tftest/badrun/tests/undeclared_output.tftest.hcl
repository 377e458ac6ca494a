run "typo" {
  command = plan
  assert {
    condition     = output.inptu == "hi"
    error_message = "never"
  }
}
