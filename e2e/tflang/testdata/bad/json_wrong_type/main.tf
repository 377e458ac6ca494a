# want: extra.tf.json:5:19 Incorrect attribute value type
resource "local_file" "base" {
  filename = "base.txt"
  content  = "base"
}
