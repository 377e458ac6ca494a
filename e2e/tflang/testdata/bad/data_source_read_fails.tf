# want: main.tf:9:1 Read local file data source error
# also: The file at given path cannot be read.
# also: The provider reported this while reading data.local_file.missing.
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}

data "local_file" "missing" {
  filename = "${path.module}/nope.txt"
}
