package yaml

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plinth-iac/plinth/internal/program"
)

// bigProgram declares n resources: every odd one reads the ID of the one
// before it, and a variable and an output read the last.
func bigProgram(n int) []byte {
	var b strings.Builder
	b.WriteString("name: big\nconfig:\n  prefix: { default: p }\nresources:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  r%d:\n    type: plinth:random:Pet\n    properties: { index: %d, prefix: \"${prefix}-%d\"", i, i, i)
		if i%2 == 1 {
			fmt.Fprintf(&b, ", prev: \"${r%d.id}\"", i-1)
		}
		b.WriteString(" }\n")
	}
	fmt.Fprintf(&b, "variables:\n  last: ${r%d.id}\noutputs:\n  last: ${last}\n", n-1)
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		data := bigProgram(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("plinth.yaml", "/project", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRun(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		p, err := Parse("plinth.yaml", "/project", bigProgram(n))
		if err != nil {
			b.Fatal(err)
		}
		ev, err := p.Program(nil, program.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := ev.Run(context.Background(), &fakeMonitor{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// petsProgram declares n independent pets, as the bench harness's scale
// scenario does.
func petsProgram(n int) []byte {
	var b strings.Builder
	b.WriteString("name: pets\nresources:\n")
	for i := range n {
		fmt.Fprintf(&b, "  pet%d:\n    type: plinth:random:Pet\n    properties: { length: 2, prefix: p%d }\n", i, i)
	}
	return []byte(b.String())
}

// BenchmarkParseLarge compares the whole-document parse of 100,000 pets
// with Parse, which reads the resources in pieces on every core.
func BenchmarkParseLarge(b *testing.B) {
	data := petsProgram(100000)
	for name, parse := range map[string]func(file, dir string, data []byte) (*Project, error){
		"whole": parseWhole, "pieces": Parse,
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parse("plinth.yaml", "/project", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
