# Precedence, lowest first: defaults, terraform.tfvars, -var-file and
# -var, the test directory's terraform.tfvars, the file's variables, the
# run's.
variables {
  b = "file"
  c = "file"
}

run "precedence" {
  command = plan
  variables {
    c = "run"
  }
  assert {
    condition     = output.all == "testdir/file/run/cli/varfile"
    error_message = "all is ${output.all}."
  }
}

run "wrong_on_purpose" {
  command = plan
  assert {
    condition     = output.all == "tfvars/file/file/cli/varfile"
    error_message = "all is ${output.all}."
  }
}
