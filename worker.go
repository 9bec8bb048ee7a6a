package hook

import (
	"context"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers: the goroutines [Server.Serve] runs invocations on.
//
// Serve runs each invocation on a goroutine of its own, so that a panic or
// a runtime.Goexit in the handler becomes an error and a deadline bounds
// a handler that ignores its context. Starting a goroutine for every
// call, and growing its stack through the reader, the scanner and the
// codec, cost about a third of a small call's time, so a goroutine that
// has served an invocation waits for the next one instead of ending.
//
// Idle workers are kept in a sync.Pool (per CPU, no global lock). The
// pool holds a handle, which the worker's goroutine does not reference:
// when the pool drops a handle, a cleanup closes the worker's job channel
// and its goroutine ends. A worker whose caller gave up on it (ctx done
// first) or whose handler called runtime.Goexit is never used again.

// worker is one goroutine that serves invocations, one at a time. The
// caller sets the job's fields and sends on jobs; the worker sets out and
// sends on done. state settles a race between the end of the job and the
// caller giving up: exactly one of them changes it from jobRunning.
type worker struct {
	jobs chan struct{}
	done chan struct{}

	// The job, set by the caller before it sends on jobs: a copy of the
	// server's settings (so that a Server on the caller's stack stays
	// there), the context, stdin and the handler.
	srv   Server
	ctx   context.Context
	stdin io.Reader
	h     Handler

	handling atomic.Pointer[Event] // the event, once the handler has it
	state    atomic.Int32
	out      outcome // set before done is sent, when state is jobFinished
	// ended is set, before done is sent, when the goroutine is ending
	// (the handler called runtime.Goexit).
	ended bool
}

// Job states.
const (
	jobRunning   = iota // the worker has the job
	jobFinished         // the worker delivered the outcome; the caller reads it
	jobAbandoned        // the caller gave up waiting; the outcome is dropped
)

// workerHandle is what the pool holds: the worker's goroutine does not
// reference it, so that it can become garbage while the goroutine waits.
type workerHandle struct{ w *worker }

var workers sync.Pool

// getWorker returns an idle worker, starting one when the pool has none.
func getWorker() *workerHandle {
	if wh, ok := workers.Get().(*workerHandle); ok {
		return wh
	}
	w := &worker{jobs: make(chan struct{}, 1), done: make(chan struct{}, 1)}
	wh := &workerHandle{w: w}
	runtime.AddCleanup(wh, func(jobs chan struct{}) { close(jobs) }, w.jobs)
	go w.loop()
	return wh
}

// putWorker returns an idle worker to the pool, dropping what its last
// job referenced.
func putWorker(wh *workerHandle) {
	w := wh.w
	w.srv, w.ctx, w.stdin, w.h, w.out = Server{}, nil, nil, nil, outcome{}
	w.handling.Store(nil)
	workers.Put(wh)
}

// loop serves jobs until jobs is closed or a job ends the goroutine.
func (w *worker) loop() {
	growStack(0)
	for range w.jobs {
		if !w.serve() {
			return
		}
	}
}

// serve serves the current job and reports whether the worker can take
// another.
func (w *worker) serve() (again bool) {
	finished := false
	// goexit hands the caller the outcome of a runtime.Goexit in the
	// handler code that settling the outcome runs (see Server.settle):
	// the goroutine ends after it.
	goexit := func(o outcome) {
		finished = true
		w.ended = true
		w.deliver(o)
	}
	defer func() {
		if finished {
			return
		}
		// A panic (recovered here, so the goroutine goes on) or a
		// runtime.Goexit (p is nil; the goroutine ends after this).
		p := recover()
		w.ended = p == nil
		again = w.deliver(w.srv.settle(unfinished(w.handling.Load(), p), w.h, goexit))
	}()
	r := w.srv.serveOne(w.ctx, w.stdin, w.h, &w.handling)
	o := w.srv.settle(r, w.h, goexit)
	finished = true
	return w.deliver(o)
}

// deliver hands o to the caller unless the caller gave up, and reports
// whether the worker can take another job.
func (w *worker) deliver(o outcome) bool {
	if !w.state.CompareAndSwap(jobRunning, jobFinished) {
		return false // abandoned: nobody waits for o, and the handle is dropped
	}
	w.out = o
	ended := w.ended
	w.done <- struct{}{}
	return !ended
}

// run serves one invocation on w and returns its outcome, or gives up
// when ctx is done first.
func (wh *workerHandle) run(s *Server, ctx context.Context, stdin io.Reader, h Handler) outcome {
	w := wh.w
	w.srv, w.ctx, w.stdin, w.h = *s, ctx, stdin, h
	w.state.Store(jobRunning)
	w.jobs <- struct{}{}
	select {
	case <-w.done:
	case <-ctx.Done():
		if w.state.CompareAndSwap(jobRunning, jobAbandoned) {
			return s.settle(interrupted(ctx, w.handling.Load()), h, nil)
		}
		<-w.done // both ready: the outcome wins
	}
	o := w.out
	if !w.ended {
		putWorker(wh)
	}
	return o
}
