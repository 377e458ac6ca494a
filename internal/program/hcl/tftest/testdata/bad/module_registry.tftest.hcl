run "a" {
  module {
    source = "hashicorp/consul/aws"
  }
}
