mock_provider "aws" {
  override_resource {
    target = data.aws_ami.a
  }
}
