# want: main.tf:2:1 Invalid resource type
resource "random_pett" "x" {
  length = 2
}
