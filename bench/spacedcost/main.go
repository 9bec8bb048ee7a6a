// Command spacedcost measures what input with whitespace between its
// tokens costs a hook, next to the same input compact (issue 32, item 6),
// for bench/run.sh: a pretty-printed event, or one written with Python's
// json.dumps separators, must cost what the compact event costs.
//
// It runs the hook (bench/run.sh gives it examples/fingerprint) on the
// MCP calls that bench/gen writes in three forms each: compact,
// "-spaced" (", " and ": ") and "-indented" (one member a line, CRLF,
// spaces and tabs), the strings byte for byte the same. It checks first
// that the three answers to each call are the same bytes, then measures:
//
//   - the CPU time (user + system, from the kernel's accounting of the
//     child) of the 300-byte, 7.2 MiB and 50,000-member calls, the forms
//     interleaved run by run so that a change of load hits them alike;
//     stdin is the payload file. Target: each spaced form within 1.10×
//     of the compact form's median;
//   - the peak RSS of the 40 MB call fed through a pipe, as Claude Code
//     sends it. Target: at most 2.2× the input, as for the compact call.
//
// It prints each median, each ratio and whether each target is met.
//
//	go run ./bench/spacedcost -hook BIN -dir PAYLOADS [-runs N] [-rss-runs N] [-strict]
//
// With -strict it exits with status 1 when a target is missed.
package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"
)

// forms are the forms of each call, compact first.
var forms = []string{"", "-spaced", "-indented"}

const (
	maxCPURatio = 1.10 // spaced CPU time ÷ compact
	maxRSSRatio = 2.2  // peak RSS ÷ input
)

func main() {
	hook := flag.String("hook", "", "the hook binary to measure")
	dir := flag.String("dir", "", "the payloads bench/gen wrote")
	runs := flag.Int("runs", 20, "runs of each form of each call")
	rssRuns := flag.Int("rss-runs", 5, "runs of each form of the 40 MB call")
	strict := flag.Bool("strict", false, "exit with status 1 when a target is missed")
	flag.Parse()
	if *hook == "" || *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: spacedcost -hook BIN -dir PAYLOADS [-runs N] [-rss-runs N] [-strict]")
		os.Exit(2)
	}
	m := measurer{hook: *hook, dir: *dir}
	calls := []string{"mcp-300B", "mcp-7MB", "mcp-50k"}

	fmt.Println("== the answers to each call in every form (bytes, first 12 hex digits of their SHA-256)")
	for _, call := range append(slices.Clone(calls), "mcp-40MB") {
		var first []byte
		for _, f := range forms {
			n, sum, err := m.answer(call + f)
			if err != nil {
				fail(err)
			}
			fmt.Printf("%-20s %9d bytes  %x\n", call+f, n, sum[:6])
			if f == "" {
				first = sum
			} else if !bytes.Equal(sum, first) {
				fail(fmt.Errorf("the answer to %s differs from the answer to %s: the forms are not the same call", call+f, call))
			}
		}
	}

	missed := false
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		missed = true
		return "not met"
	}

	fmt.Printf("== CPU time of %s (user + system, median of %d runs, forms interleaved)\n", filepath.Base(*hook), *runs)
	for _, call := range calls {
		times := make([][]time.Duration, len(forms))
		for range *runs {
			for i, f := range forms {
				d, _, err := m.run(call+f, false)
				if err != nil {
					fail(err)
				}
				times[i] = append(times[i], d)
			}
		}
		base := median(times[0])
		fmt.Printf("%-20s %8.2f ms\n", call, ms(base))
		for i, f := range forms[1:] {
			t := median(times[i+1])
			r := float64(t) / float64(base)
			fmt.Printf("%-20s %8.2f ms  %.2f× compact  (target ≤ %.2f×: %s)\n", call+f, ms(t), r, maxCPURatio, verdict(r <= maxCPURatio))
		}
	}

	fmt.Printf("== peak RSS of %s on the 40 MB call through a pipe (median of %d runs)\n", filepath.Base(*hook), *rssRuns)
	for _, f := range forms {
		name := "mcp-40MB" + f
		fi, err := os.Stat(m.path(name))
		if err != nil {
			fail(err)
		}
		var kib []int64
		for range *rssRuns {
			_, k, err := m.run(name, true)
			if err != nil {
				fail(err)
			}
			kib = append(kib, k)
		}
		k := median(kib)
		if k < 0 {
			fmt.Printf("%-20s (peak RSS not known on this system)\n", name)
			continue
		}
		r := float64(k*1024) / float64(fi.Size())
		fmt.Printf("%-20s %9d KiB  %.2f× the input  (target ≤ %.1f×: %s)\n", name, k, r, maxRSSRatio, verdict(r <= maxRSSRatio))
	}
	if missed && *strict {
		os.Exit(1)
	}
}

// measurer runs the hook on payloads of a directory.
type measurer struct {
	hook, dir string
}

func (m measurer) path(name string) string { return filepath.Join(m.dir, name+".json") }

// answer returns the size and the SHA-256 of the hook's stdout on the
// payload name. The answer is hashed as it comes, not held: on Linux a
// child's peak RSS starts from its parent's, so this process stays small.
func (m measurer) answer(name string) (int64, []byte, error) {
	in, err := os.Open(m.path(name))
	if err != nil {
		return 0, nil, err
	}
	defer in.Close()
	h := sha256.New()
	var n counter
	cmd := exec.Command(m.hook)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, io.MultiWriter(h, &n), os.Stderr
	if err := cmd.Run(); err != nil {
		return 0, nil, fmt.Errorf("%s on %s: %v", m.hook, name, err)
	}
	return int64(n), h.Sum(nil), nil
}

// counter counts the bytes written to it.
type counter int64

func (c *counter) Write(p []byte) (int, error) {
	*c += counter(len(p))
	return len(p), nil
}

// run runs the hook once on the payload name, its stdout discarded, and
// returns its CPU time and peak RSS in KiB. With pipe set, stdin is a
// pipe that the payload is copied into, else the payload's file.
func (m measurer) run(name string, pipe bool) (time.Duration, int64, error) {
	in, err := os.Open(m.path(name))
	if err != nil {
		return 0, 0, err
	}
	defer in.Close()
	cmd := exec.Command(m.hook)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if pipe {
		w, err := cmd.StdinPipe()
		if err != nil {
			return 0, 0, err
		}
		go func() {
			io.Copy(w, in)
			w.Close()
		}()
	} else {
		cmd.Stdin = in
	}
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%s on %s: %v", m.hook, name, err)
	}
	ps := cmd.ProcessState
	return ps.UserTime() + ps.SystemTime(), peakRSS(ps), nil
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "spacedcost:", err)
	os.Exit(2)
}
