run "a" {
  plan_options {
    replace = [random_pet.a, "b"]
  }
}
