run "a" {
  module {
    source  = "./setup"
    version = "1.0.0"
  }
}
