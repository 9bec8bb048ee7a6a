package testutil

import (
	"fmt"
	"runtime"
	"testing"
)

// FailTB is a testing.TB that records the failures and the logs of what
// it is given instead of failing the test: for the tests of a helper whose
// job is to fail its test (claudetest.Run, codextest.Run, …). Everything
// else goes to the real test.
type FailTB struct {
	*testing.T
	// Errs are the messages of Errorf and Fatalf; Logs those of Log and
	// Logf, in order.
	Errs, Logs []string
	cleanups   []func()
}

// Errorf records a failure.
func (f *FailTB) Errorf(format string, args ...any) {
	f.Errs = append(f.Errs, fmt.Sprintf(format, args...))
}

// Fatalf records a failure and ends the goroutine, as testing's does.
func (f *FailTB) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}

// Failed reports whether a failure was recorded.
func (f *FailTB) Failed() bool { return len(f.Errs) > 0 }

// Log records a log line.
func (f *FailTB) Log(args ...any) { f.Logs = append(f.Logs, fmt.Sprint(args...)) }

// Logf records a log line.
func (f *FailTB) Logf(format string, args ...any) {
	f.Logs = append(f.Logs, fmt.Sprintf(format, args...))
}

// Cleanup keeps fn for the end of [Failing].
func (f *FailTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

// Failing runs fn with a FailTB on a goroutine of its own, so that a
// Fatalf ends fn alone, then the cleanups fn registered, last first, and
// returns the FailTB.
func Failing(t *testing.T, fn func(tb *FailTB)) *FailTB {
	f := &FailTB{T: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	return f
}
