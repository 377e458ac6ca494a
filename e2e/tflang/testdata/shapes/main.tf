terraform {
  required_providers {
    shapes = { source = "hashicorp/shapes" }
  }
}

resource "shapes_thing" "t" {
  tags   = ["b", "a", "c"]
  zones  = ["z1", "z2", "z3"]
  labels = { k = "v", "x y" = "z" }
  pair   = { a = "one", b = 1 }
  nested = { x = "ex", y = ["p", "q"] }
  rule {
    port  = 80
    proto = "tcp"
  }
  rule {
    port  = 443
    proto = "tcp"
  }
  disk {
    size = 10
    inner { n = "i1" }
  }
  disk {
    size = 20
  }
  meta {
    owner = "me"
  }
}
