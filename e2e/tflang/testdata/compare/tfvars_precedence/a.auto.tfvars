b = "a.auto"
d = "a.auto"
e = "a.auto"
