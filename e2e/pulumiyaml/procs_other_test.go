//go:build unix && !linux

package pulumiyaml_test

// Without /proc, the tests cannot see processes.
func running(string) []int { return nil }
func killAll([]int)        {}
