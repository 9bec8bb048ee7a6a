package testutil

import (
	"context"
	"sync"
	"time"
)

// DeadlineContext returns a context whose deadline passes when a handler
// served under it calls [PassDeadline], not at a time: a test of what
// happens when the deadline passes while a handler runs then holds on a
// loaded machine, where a short Server Timeout may pass before the input
// is even read. Until then it is never done. Its Err is then
// context.DeadlineExceeded, as a deadline's is.
func DeadlineContext() context.Context {
	return &deadlineCtx{done: make(chan struct{})}
}

// PassDeadline makes the deadline of the [DeadlineContext] that ctx
// derives from pass, and reports whether there was one.
func PassDeadline(ctx context.Context) bool {
	c, ok := ctx.Value(deadlineKey{}).(*deadlineCtx)
	if ok {
		c.once.Do(func() { close(c.done) })
	}
	return ok
}

type deadlineKey struct{}

type deadlineCtx struct {
	done chan struct{}
	once sync.Once
}

func (c *deadlineCtx) Deadline() (time.Time, bool) { return time.Time{}, false }

func (c *deadlineCtx) Done() <-chan struct{} { return c.done }

func (c *deadlineCtx) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

func (c *deadlineCtx) Value(key any) any {
	if key == (deadlineKey{}) {
		return c
	}
	return nil
}
