run "a" {
  colour = "blue"
}
