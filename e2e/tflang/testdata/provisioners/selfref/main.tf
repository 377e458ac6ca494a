# A local-exec provisioner on create and one at destroy, both writing
# files from the resource's own attributes (self) and count.index.
resource "random_pet" "pet" {
  count = 2
  provisioner "local-exec" {
    command = "echo ${self.id} ${count.index} > created-${count.index}.txt"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${self.id} > destroyed-${count.index}.txt"
  }
}

output "pets" { value = random_pet.pet[*].id }
