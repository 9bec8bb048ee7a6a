package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/rawjson"
)

// timeRound is the precision of the times hookcheck prints.
const timeRound = time.Millisecond

// check runs every case cfg asks for and returns the report. The runs
// come in two stages: first the control runs, one per payload, then the
// tricky runs, whose covering set favours the members where the control
// runs show that tricky values matter (see focus).
func check(ctx context.Context, cfg *config, stderr io.Writer) (*report, error) {
	ps, err := loadFixtures(cfg)
	if err != nil {
		return nil, err
	}
	values, err := selectValues(cfg.values)
	if err != nil {
		return nil, err
	}
	if !cfg.full && cfg.fixturesDir == "" {
		// The built-in recorded payloads repeat the shapes of the others;
		// payloads of one's own are each run.
		ps = distinctShapes(ps)
	}
	projectDir, err := os.MkdirTemp("", "hookcheck-project-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(projectDir)
	r, err := newRunner(cfg.command, projectDir, cfg.maxOutput)
	if err != nil {
		return nil, err
	}

	start := time.Now()
	controls := controlCases(ps)
	prog := newProgress(stderr, len(controls))
	// The first timeout ends the check: each run still to come could
	// take the whole limit (600 s by Claude Code's default), and the
	// check fails already.
	hctx, halt := context.WithCancelCause(ctx)
	defer halt(nil)
	rs := runs{parent: ctx, ctx: hctx, halt: halt, r: r, cfg: cfg, prog: prog}
	outs, err := rs.all(controls)
	if err != nil {
		return nil, err
	}
	for _, o := range outs {
		o.c.p.controlCode = o.res.code()
	}
	kept, read := focus(outs)
	tricky := append(trickyCases(ps, values, cfg.perMember, cfg.full, kept, read), namesCases(ps)...)
	prog.grow(len(tricky))
	more, err := rs.all(tricky)
	if err != nil {
		return nil, err
	}
	prog.finish()
	outs = append(outs, more...)
	wall := time.Since(start)
	consts := analyze(outs, cfg.changed, cfg.changedOutput, cfg.strict, cfg.timeout > 0, cfg.codex)
	rep := newReport(cfg, outs, consts, wall)
	rep.Skipped = len(controls) + len(tricky) - len(outs)
	return rep, nil
}

// focus returns the tool_input members where the control runs show that
// tricky values matter most: kept, the members a control run copied into
// its updatedInput unchanged, where a value may come back mangled; and
// read, the members the hook may have read for an answer of another kind:
// those a control run left out of its updatedInput, and every member of
// a payload the hook answered without one (on stdout or with an exit code
// other than 0). Members the hook set to a value of its own are in
// neither.
func focus(outs []*outcome) (kept, read []slot) {
	for _, o := range outs {
		p := o.c.p
		if len(p.fields) == 0 || o.res.rec == nil || o.res.timedOut {
			continue
		}
		upd := o.updated()
		if upd == nil {
			if len(bytes.TrimSpace(o.res.rec.Stdout)) > 0 || o.res.rec.Code != hook.ExitOK {
				for i := range p.fields {
					read = append(read, slot{p, i})
				}
			}
			continue
		}
		if p.output {
			kept, read = focusOutput(p, o.c.toolResponse, upd, kept, read)
			continue
		}
		oms, err := rawjson.Members(upd)
		if err != nil {
			continue
		}
		for i, f := range p.fields {
			om, ok := rawjson.Find(oms, f.Key)
			switch {
			case !ok:
				read = append(read, slot{p, i})
			case bytes.Equal(compact(om.Value), compact(f.Value)):
				kept = append(kept, slot{p, i})
			}
		}
	}
	return kept, read
}

// runs runs cases, cfg.parallel at a time, and stops at the first
// timeout.
type runs struct {
	// parent is done when the check is interrupted; ctx when it is
	// interrupted or halted.
	parent, ctx context.Context
	halt        context.CancelCauseFunc
	r           *runner
	cfg         *config
	prog        *progress
}

// all runs the cases and returns the outcomes of those that ran, in the
// order of cases. Once a run timed out, no run starts, and the runs in
// flight are killed and left out. It stops early, with an error, when the
// check is interrupted.
func (rs *runs) all(cases []*testCase) ([]*outcome, error) {
	outs := make([]*outcome, len(cases))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(rs.cfg.parallel, len(cases)) {
		wg.Go(func() {
			for rs.ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(cases) {
					return
				}
				res := rs.r.run(rs.ctx, cases[i].payload, rs.cfg.limitOf(cases[i].p.event))
				if res.halted {
					return
				}
				if res.timedOut {
					rs.halt(errHalted)
				}
				outs[i] = &outcome{c: cases[i], res: res}
				rs.prog.done()
			}
		})
	}
	wg.Wait()
	if err := rs.parent.Err(); err != nil {
		rs.prog.finish()
		return nil, fmt.Errorf("interrupted after %d runs: %w", rs.prog.count(), err)
	}
	return slices.DeleteFunc(outs, func(o *outcome) bool { return o == nil }), nil
}

// progress writes a line on a terminal that counts the runs, once a run
// takes longer than a second. It does nothing when stderr is not a
// terminal.
type progress struct {
	w     io.Writer // nil when not a terminal
	total int
	start time.Time
	mu    sync.Mutex
	n     int
	last  time.Time
	shown bool
}

func newProgress(stderr io.Writer, total int) *progress {
	p := &progress{total: total, start: time.Now()}
	if isTerminal(stderr) {
		p.w = stderr
	}
	return p
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// done counts one more run, and shows the count every 200 ms.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	now := time.Now()
	if p.w == nil || now.Sub(p.start) < time.Second || now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	p.shown = true
	fmt.Fprintf(p.w, "\rhookcheck: %d/%d runs, %s\033[K", p.n, p.total, now.Sub(p.start).Round(100*time.Millisecond))
}

// grow adds n runs to the total.
func (p *progress) grow(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total += n
}

func (p *progress) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// finish clears the progress line.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// medianMax returns the median and the largest of ds, and the index of
// the largest.
func medianMax(ds []time.Duration) (median, max time.Duration, at int) {
	if len(ds) == 0 {
		return 0, 0, -1
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	median = s[len(s)/2]
	if len(s)%2 == 0 {
		median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	at = 0
	for i, d := range ds {
		if d > ds[at] {
			at = i
		}
	}
	return median, ds[at], at
}
