# A plan run cannot assert on a value known only after apply: the run
# fails and the file's later runs are skipped.
run "known" {
  command = plan
  assert {
    condition     = terraform_data.label.input == "plinth-2"
    error_message = "The planned input is wrong."
  }
}

run "unknown" {
  command = plan
  assert {
    condition     = output.label == "plinth-2"
    error_message = "The label is wrong."
  }
}

run "after" {
  command = plan
}
