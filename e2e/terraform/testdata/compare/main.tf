# The same resources as plinth.yaml, for terraform.

resource "random_integer" "n" {
  min  = 1
  max  = 1000000
  seed = "plinth"
}

resource "random_shuffle" "s" {
  input        = ["a", "b", "c", "d", "e", "f"]
  result_count = 4
  seed         = "plinth"
}

resource "local_file" "f" {
  filename = "compare.txt"
  content  = "compare me\n"
}

data "tls_public_key" "k" {
  private_key_pem = file("key.pem")
}
