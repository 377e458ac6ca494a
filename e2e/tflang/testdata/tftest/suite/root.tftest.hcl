# A test file beside the configuration rather than in tests/.
run "root" {
  command = plan
  variables {
    size = 1
  }
  assert {
    condition     = output.doubled == 2
    error_message = "doubled is wrong."
  }
}
