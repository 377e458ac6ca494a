# want: main.tf:3:1 Argument or block definition required
resource "local_file" "base" {
= "x"
}
