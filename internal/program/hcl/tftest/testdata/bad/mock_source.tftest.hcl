mock_provider "aws" {
  source = "./mocks"
}
