# want: main.tf:4:14 Reference to undeclared resource
resource "local_file" "base" {
  filename = "base.txt"
  content  = random_pet.nope.id
}
