# Every run passes: file variables, apply and plan runs.
variables {
  name = "alpha"
}

run "create" {
  assert {
    condition     = output.label == "alpha-2"
    error_message = "The label is wrong."
  }
  assert {
    condition     = length(random_string.suffix.result) == 2
    error_message = "The suffix has the wrong length."
  }
  assert {
    condition     = local_file.note.content == "hello alpha"
    error_message = "The note says the wrong thing."
  }
}

run "plan_more" {
  command = plan
  variables {
    size = 4
  }
  assert {
    condition     = output.doubled == 8
    error_message = "doubled is not twice the size."
  }
  assert {
    condition     = terraform_data.label.input == "alpha-4"
    error_message = "The planned label input is wrong."
  }
}
