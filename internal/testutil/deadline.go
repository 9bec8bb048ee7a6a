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
	return DeadlineContextOf(context.Background())
}

// DeadlineContextOf is [DeadlineContext] derived from parent: it has
// parent's values, and it is done when parent is, with parent's error.
func DeadlineContextOf(parent context.Context) context.Context {
	c := &deadlineCtx{parent: parent, done: make(chan struct{})}
	context.AfterFunc(parent, func() { c.end(parent.Err()) })
	return c
}

// PassDeadline makes the deadline of the [DeadlineContext] that ctx
// derives from pass, and reports whether there was one.
func PassDeadline(ctx context.Context) bool {
	c, ok := ctx.Value(deadlineKey{}).(*deadlineCtx)
	if ok {
		c.end(context.DeadlineExceeded)
	}
	return ok
}

type deadlineKey struct{}

type deadlineCtx struct {
	parent context.Context
	done   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	err    error
}

// end makes c done with err, unless it is done already.
func (c *deadlineCtx) end(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	})
}

func (c *deadlineCtx) Deadline() (time.Time, bool) { return c.parent.Deadline() }

func (c *deadlineCtx) Done() <-chan struct{} { return c.done }

func (c *deadlineCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *deadlineCtx) Value(key any) any {
	if key == (deadlineKey{}) {
		return c
	}
	return c.parent.Value(key)
}
