# --target of one new instance of a counted and of a for_each resource
# that other resources and outputs refer to whole (splat, keys, values)
# and by instance: the instances left out of the run do not exist, so
# the splat lists the targeted instance only, as terraform's does, and
# the resources that name a missing instance are left out of the run.
resource "random_pet" "p" {
  count = 2
}

resource "random_id" "f" {
  for_each    = toset(["a", "b"])
  byte_length = 4
}

resource "terraform_data" "all" {
  input = random_pet.p[*].id
}

resource "local_file" "joined" {
  filename = "${path.module}/out/joined.txt"
  content  = join(",", random_pet.p[*].id)
}

resource "terraform_data" "second" {
  input = random_pet.p[1].id
}

resource "terraform_data" "b" {
  input = random_id.f["b"].hex
}

output "pets" {
  value = random_pet.p[*].id
}

output "pet_count" {
  value = length(random_pet.p)
}

output "id_keys" {
  value = keys(random_id.f)
}

output "hex_lengths" {
  value = [for k, v in random_id.f : length(v.hex)]
}
