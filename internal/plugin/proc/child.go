package proc

import (
	"runtime"
	"time"
)

// Grace is how long a stopped child's processes have between SIGTERM and
// SIGKILL.
const Grace = 3 * time.Second

// TiesChildren reports whether this system guarantees that a child
// started with StartChild, and every process it started, is killed as
// soon as plinth dies, even of SIGKILL. Only Linux has the parent-death
// signal that makes it so; elsewhere the reaper notices within a tenth of
// a second, which is close, not guaranteed (and Windows has no reaper).
const TiesChildren = runtime.GOOS == "linux"

// reaperEnv names the variable that makes a plinth binary (any binary
// that links this package) act as the reaper of a child: its value is
// the PID of the process that started it. The reaper removes it before
// it starts the command, so a plinth the command runs is plinth again.
const reaperEnv = "PLINTH_CHILD_REAPER"

// reaperName is the reaper's argv[0], as ps shows it.
const reaperName = "plinth-child-reaper"
