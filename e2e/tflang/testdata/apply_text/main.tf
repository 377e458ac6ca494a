resource "local_file" "f" {
  filename = "${path.module}/out.txt"
  content  = "hello\nworld\n"
}

# read while planning
data "local_file" "read" {
  filename = "${path.module}/fixed.txt"
}

# read during apply: it depends on a resource to be created
data "local_file" "after" {
  filename = local_file.f.filename
}

resource "tls_private_key" "k" {
  algorithm = "ED25519"
}

ephemeral "random_password" "e" {
  length = 8
}

output "pem" { value = tls_private_key.k.public_key_pem }
output "content" { value = data.local_file.after.content }
output "fixed" { value = data.local_file.read.content }
output "nested" {
  value = {
    a            = [1, 2, 3]
    b            = { c = "d", e = ["f", "g"] }
    list_of_maps = [{ x = "1" }, { y = "2", z = "3" }]
  }
}
output "typed" {
  value = {
    s = toset(["b", "a"])
    m = tomap({ k = "v" })
    l = tolist([{ n = 1 }])
  }
}
output "set" { value = toset(["y", "x"]) }
output "empty" { value = tomap({}) }
output "pw" {
  value     = ephemeralasnull(ephemeral.random_password.e.result) == null ? "gone" : "kept"
  sensitive = true
}
