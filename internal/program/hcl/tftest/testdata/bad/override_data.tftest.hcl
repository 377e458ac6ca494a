override_data {
  target = aws_ami.a
}
