run "module" {
  module {
    source = "./testing/rnd"
  }
  assert {
    condition     = length(output.s) == 6
    error_message = "The string is ${output.s}."
  }
}

run "root" {
  command = plan
  assert {
    condition     = output.greeting == "hello"
    error_message = "The greeting is wrong."
  }
}
