# want: main.tf:5:17 Invalid Configuration for Read-Only Attribute
resource "local_file" "base" {
  filename    = "base.txt"
  content     = "base"
  content_md5 = "abc"
}
