mock_provider "aws" {
  alias = ["east"]
}
