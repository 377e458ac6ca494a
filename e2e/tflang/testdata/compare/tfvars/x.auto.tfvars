b = "from-auto"
c = [1, 2, 3]
