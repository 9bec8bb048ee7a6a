// Command report reads the JSON exports of hyperfine written by
// bench/run.sh, one file per payload and round named <payload>.<round>.json,
// and prints for each payload and program the median wall time over all
// runs of all rounds, its ratio to the floor (drain stdin, fixed answer)
// to the validate-once floor and to the handwritten hook (fingerprint's
// work without the library's machinery), and whether the targets are met (when
// run.sh fed stdin through its wrapper, the wrapper's measured cost is
// taken off every median first):
//
//   - fingerprint ≤ 1.10 × floor on the 300-byte MCP call;
//   - fingerprint ≤ 1.3 × validate-once floor on the 7 MB Write.
//
// With -strict it exits with status 1 when a target is missed.
//
//	go run ./bench/report [-strict] DIR/*.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// export is the part of a hyperfine JSON export that report reads.
type export struct {
	Results []struct {
		Command string    `json:"command"`
		Times   []float64 `json:"times"`
	} `json:"results"`
}

// target is one ratio the issue sets.
type target struct {
	payload, program, base string
	max                    float64
}

var targets = []target{
	{"mcp-300B", "fingerprint", "floor", 1.10},
	{"write-7MB", "fingerprint", "floor-validate", 1.3},
}

func main() {
	strict := flag.Bool("strict", false, "exit with status 1 when a target is missed")
	flag.Parse()
	// times[payload][program] holds every run of every round, in seconds.
	times := map[string]map[string][]float64{}
	var payloads, programs []string
	for _, name := range flag.Args() {
		payload, _, _ := strings.Cut(filepath.Base(name), ".")
		b, err := os.ReadFile(name)
		if err != nil {
			fail(err)
		}
		var e export
		if err := json.Unmarshal(b, &e); err != nil {
			fail(fmt.Errorf("%s: %v", name, err))
		}
		if times[payload] == nil {
			times[payload] = map[string][]float64{}
			payloads = append(payloads, payload)
		}
		for _, r := range e.Results {
			times[payload][r.Command] = append(times[payload][r.Command], r.Times...)
			if !slices.Contains(programs, r.Command) {
				programs = append(programs, r.Command)
			}
		}
	}
	if len(payloads) == 0 {
		fail(fmt.Errorf("no hyperfine exports given"))
	}
	// medians[payload][program] is the median wall time, less the cost of
	// the stdin wrapper when run.sh used one (measured as "_wrapped-true"
	// minus "_true").
	medians := map[string]map[string]float64{}
	fmt.Printf("%-12s %-15s %6s %11s %8s %10s %8s\n", "payload", "program", "runs", "median", "×floor", "×validate", "×hand")
	for _, p := range payloads {
		medians[p] = map[string]float64{}
		overhead := 0.0
		if w, t := times[p]["_wrapped-true"], times[p]["_true"]; len(w) > 0 && len(t) > 0 {
			overhead = median(w) - median(t)
			fmt.Printf("%-12s (stdin wrapper: %.2f ms taken off every median)\n", p, overhead*1e3)
		}
		for _, prog := range programs {
			if ts := times[p][prog]; len(ts) > 0 && !strings.HasPrefix(prog, "_") {
				medians[p][prog] = median(ts) - overhead
			}
		}
		for _, prog := range programs {
			m, ok := medians[p][prog]
			if !ok {
				continue
			}
			fmt.Printf("%-12s %-15s %6d %8.2f ms %8s %10s %8s\n", p, prog, len(times[p][prog]), m*1e3,
				ratio(m, medians[p]["floor"]), ratio(m, medians[p]["floor-validate"]), ratio(m, medians[p]["handwritten"]))
		}
	}
	missed := false
	fmt.Println()
	for _, t := range targets {
		m, b := medians[t.payload][t.program], medians[t.payload][t.base]
		if m == 0 || b == 0 {
			fmt.Printf("target %s on %s ≤ %.2f × %s: not measured\n", t.program, t.payload, t.max, t.base)
			continue
		}
		verdict := "met"
		if m/b > t.max {
			verdict, missed = "MISSED", true
		}
		fmt.Printf("target %s on %s ≤ %.2f × %s: %.3f× — %s\n", t.program, t.payload, t.max, t.base, m/b, verdict)
	}
	if m, h, f := medians["mcp-300B"]["fingerprint"], medians["mcp-300B"]["handwritten"], medians["mcp-300B"]["floor"]; m > 0 && h > 0 && f > 0 {
		fmt.Printf("on the 300-byte call: handwritten is %.3f× the floor (Go, the linked packages and the work); the library adds %.3f× on top (fingerprint ÷ handwritten)\n", h/f, m/h)
	}
	if missed && *strict {
		os.Exit(1)
	}
}

func ratio(m, base float64) string {
	if base == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", m/base)
}

func median(ts []float64) float64 {
	s := slices.Clone(ts)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "report:", err)
	os.Exit(2)
}
