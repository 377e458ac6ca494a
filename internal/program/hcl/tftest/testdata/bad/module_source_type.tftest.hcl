run "a" {
  module {
    source = 12
  }
}
