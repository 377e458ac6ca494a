# want: main.tf:9:3 Ephemeral value not allowed
ephemeral "random_password" "db" {
  length  = 12
  special = false
}

resource "terraform_data" "uses" {
  # terraform_data's input is recorded in state: an ephemeral value may not go there
  input = ephemeral.random_password.db.result
}
