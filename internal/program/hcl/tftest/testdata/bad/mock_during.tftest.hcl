mock_provider "aws" {
  override_during = soon
}
