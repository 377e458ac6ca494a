e = "varfile"
