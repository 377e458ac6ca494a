run "a" {
  plan_options {
    mode = "normal"
  }
}
