a = "testdir"
