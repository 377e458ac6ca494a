package pulumirpc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// faultPlugin is the path of testdata/faultplugin, built once for the
// package's tests.
var faultPlugin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pulumirpc-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	faultPlugin = filepath.Join(dir, "pulumi-resource-fault")
	build := exec.Command("go", "build", "-o", faultPlugin, "./testdata/faultplugin")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the test plugin:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// logSink collects what plugins log.
type logSink struct {
	mu    sync.Mutex
	lines []LogLine
}

func (s *logSink) log(l LogLine) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, l)
}

func (s *logSink) has(stream, text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.lines {
		if l.Stream == stream && l.Text == text && l.Provider == "fault" {
			return true
		}
	}
	return false
}

func faultConfig(fault string, sink *logSink) Config {
	return Config{
		Name: "fault",
		Path: faultPlugin,
		Env:  append(os.Environ(), "PLINTH_FAULT="+fault),
		Log:  sink.log,
	}
}
