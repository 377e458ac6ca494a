# want: main.tf:2:1 X
resource "random_pett" "x" {
  length = 2
}
