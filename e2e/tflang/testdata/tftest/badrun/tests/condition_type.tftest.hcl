run "list" {
  command = plan
  assert {
    condition     = [true]
    error_message = "A list is not a condition."
  }
}
