names = ["a", "b", "c"]
sizes = { a = 1, c = 3 }
