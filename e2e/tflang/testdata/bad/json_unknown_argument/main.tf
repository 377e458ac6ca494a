# want: extra.tf.json:6:9 Extraneous JSON object property
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
