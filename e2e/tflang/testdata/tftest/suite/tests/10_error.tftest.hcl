# An assertion that refers to something that does not exist is an error.
run "ok" {
  command = plan
}

run "bad_ref" {
  command = plan
  assert {
    condition     = output.nonexistent == 1
    error_message = "never"
  }
}

run "skipped" {
  command = plan
}
