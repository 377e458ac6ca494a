# Applied by terraform in TestAdoptTerraformState; plinth.yaml beside it
# declares the same resources under the same addresses.

resource "random_pet" "pet" {
  length = 2
}

resource "random_password" "pw" {
  length = 12
}

resource "local_file" "page" {
  filename = "page.txt"
  content  = "hello ${random_pet.pet.id}\n"
}

resource "time_static" "t" {}

output "pet" {
  value = random_pet.pet.id
}

output "password" {
  value     = random_password.pw.result
  sensitive = true
}
