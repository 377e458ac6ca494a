//go:build !unix

package state

// ProcessStartTime is not available on this system.
func ProcessStartTime(int) (uint64, bool) { return 0, false }

// processAlive cannot tell on this system, so holders count as unknown
// and stale locks are never reported.
func processAlive(int) (alive, known bool) { return false, false }
