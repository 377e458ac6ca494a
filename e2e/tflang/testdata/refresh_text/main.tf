resource "random_pet" "p" {}

resource "local_file" "f" {
  filename = "${path.module}/out.txt"
  content  = random_pet.p.id
}

output "pet" { value = random_pet.p.id }
