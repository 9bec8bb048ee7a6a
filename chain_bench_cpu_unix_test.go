//go:build unix

package hook_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used
// so far, and true; see chain_bench_cpu_other_test.go for where it is not
// known.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
