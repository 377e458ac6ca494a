run "a" {
  state_key = "other"
}
