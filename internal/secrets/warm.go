package secrets

import (
	"os"
	"runtime"
)

// warmHeap leaves n bytes of free heap already backed by memory, for
// argon2's one large allocation to reuse. Fresh pages are mapped by a
// fault on first touch; argon2 touches its 64 MiB from several threads
// at once, and on a virtual machine those concurrent faults cost more
// than the hashing: on a 2-core VM a new process's derivation took
// 0.16 s of user and 0.25–0.29 s of system CPU. Touched here, from one
// thread, first, the same derivation takes 0.15 s and 0.04–0.06 s.
// Afterwards the buffer is dropped and collected, so its pages are free
// heap that the runtime hands to the next large allocation; if something
// else takes them first, argon2 faults its own pages as before and only
// the time spent here is lost. With one processor there are no
// concurrent faults to avoid, and nothing is done.
func warmHeap(n int) {
	if runtime.GOMAXPROCS(0) < 2 {
		return
	}
	b := make([]byte, n)
	page := os.Getpagesize()
	for i := 0; i < len(b); i += page {
		b[i] = 1
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}
