# Locals the console cases in ../../cases_test.go refer to: the test
# evaluates these with the same values terraform console sees.
locals {
  tmpl      = "Hello, $${name}!"
  tmpl_list = "$${jsonencode(items)}"
  tmpl_map  = { a = "A $${name}" }
  tmpls     = ["L $${name}"]
  secret    = sensitive("hunter2")
  ephemeral = "not really"
}
