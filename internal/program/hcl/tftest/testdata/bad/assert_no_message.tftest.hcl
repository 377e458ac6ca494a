run "a" {
  assert {
    condition = true
  }
}
