run "a" {
  plan_options {
    mode = refresh-only
  }
}
