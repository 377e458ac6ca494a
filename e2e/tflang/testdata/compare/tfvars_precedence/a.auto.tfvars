b = "a.auto"
d = "a.auto"
