run "a" {
  plan_options {
    refresh = "no"
  }
}
