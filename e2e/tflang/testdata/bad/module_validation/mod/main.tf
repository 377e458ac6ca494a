variable "size" {
  type = number
  validation {
    condition     = var.size < 10
    error_message = "The size must be less than 10."
  }
}
