override_data {
  target = data.aws_ami.a
}
