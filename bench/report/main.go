// Command report reads the JSON exports of hyperfine written by
// bench/run.sh, one file per payload and round named <payload>.<round>.json,
// and prints for each payload and program the median wall time over all
// runs of all rounds, its ratio to the floor (drain stdin, fixed answer),
// to the validate-once floor, to the handwritten hook (fingerprint's work
// without the library's machinery) and to the validate-once-and-echo
// reference (bench/echovalidate), and whether the targets are met (when
// run.sh fed stdin through its wrapper, the wrapper's measured cost is
// taken off every median first):
//
//   - 300-byte MCP call: fingerprint ≤ 1.05 × handwritten and ≤ 1.12 × floor;
//   - 7.2 MiB MCP call echoed with one member added: fingerprint ≤ 1.3 ×
//     handwritten and ≤ 0.8 × echovalidate;
//   - MCP call with 50,000 members: fingerprint ≤ 3 × handwritten;
//   - 7 MB Write (an earlier issue's): fingerprint ≤ 1.3 × validate-once floor.
//
// With -gobench it also reads the output of `go test -bench` (any number
// of runs appended to one file) and judges, on medians,
// BenchmarkMembers/Serve/100000 ÷ Serve/10000 ≤ 12 (ns/op),
// BenchmarkServe on the 300-byte call ≤ 5 µs and ≤ 8 allocations, and
// that BenchmarkServeParallel at every CPU runs at least 75% of the ideal
// speed-up over 1 CPU (Serve scales with cores), and prints
// BenchmarkServeParallel's ns/op at each -cpu with its scaling. With
// -memory it reads the output of `go test -v -run TestServeMemory` and
// judges the peak RSS growth of the echo of a 100 MB tool_input (≤ 2.2 ×
// the input) and of the deny on a 62 MiB event with 5.5 million members
// (≤ 4 ×).
//
// With -strict it exits with status 1 when a target is missed.
//
//	go run ./bench/report [-strict] [-gobench FILE] [-memory FILE] DIR/*.json
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// export is the part of a hyperfine JSON export that report reads.
type export struct {
	Results []struct {
		Command string    `json:"command"`
		Times   []float64 `json:"times"`
	} `json:"results"`
}

// target is one ratio of two programs' medians on a payload that the
// issue bounds.
type target struct {
	payload, program, base string
	max                    float64
	note                   string // printed after the target, when set
}

var targets = []target{
	{"mcp-300B", "fingerprint", "handwritten", 1.10, ""},
	{"mcp-300B", "fingerprint", "floor", 1.35, ""},
	// The Go peers, built from their public sources outside the
	// repository (bench/run.sh says how): no faster than fingerprint.
	{"mcp-300B", "fingerprint", "cchooks", 1, " (Brads3290/cchooks: the peer no faster)"},
	{"mcp-300B", "fingerprint", "agenthooks", 1, " (speakeasy-api/agenthooks: the peer no faster)"},
	{"mcp-7MB", "fingerprint", "handwritten", 1.3, ""},
	{"mcp-7MB", "fingerprint", "echovalidate", 0.8, ""},
	{"mcp-50k", "fingerprint", "handwritten", 3, ""},
	{"write-7MB", "fingerprint", "floor-validate", 1.3, " (an earlier issue's target)"},
}

// membersMax bounds BenchmarkMembers/Serve/100000 ÷ Serve/10000: ten
// times the members may cost at most 12 times the time.
const membersMax = 12

// The bounds of BenchmarkServe on the 300-byte call, and the share of the
// ideal speed-up (N times at N CPUs) that BenchmarkServeParallel must
// reach for Serve to count as scaling with cores.
const (
	serveMaxNs     = 5000
	serveMaxAllocs = 8
	parallelMin    = 0.75
)

// rssMax bounds the peak RSS growth of TestServeMemory100MB's cases, as a
// multiple of the input.
var rssMax = []struct {
	name, what string
	max        float64
}{
	{"echo", "echo of a 100 MB tool_input", 2.2},
	{"echo-indented", "the same echo, the event pretty-printed", 2.2},
	{"members", "deny on a 62 MiB event with 5.5 M members", 4},
}

// processRSSMax bounds the peak RSS of a whole hook process (GNU time's
// %M) echoing the 40 MB tool_input of mcp-40MB, as a multiple of the input.
const processRSSMax = 2.2

func main() {
	strict := flag.Bool("strict", false, "exit with status 1 when a target is missed")
	processRSS := flag.String("rss", "", "a file of `program KiB input-bytes` lines, one per run: the peak RSS of whole hook processes")
	gobench := flag.String("gobench", "", "a file of `go test -bench` output to judge BenchmarkMembers/Serve and show BenchmarkServeParallel from")
	memory := flag.String("memory", "", "a file of `go test -v -run TestServeMemory` output to judge the peak RSS growth from")
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
	fmt.Printf("%-12s %-15s %6s %11s %8s %10s %8s %8s\n", "payload", "program", "runs", "median", "×floor", "×validate", "×hand", "×echo")
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
			fmt.Printf("%-12s %-15s %6d %8.2f ms %8s %10s %8s %8s\n", p, prog, len(times[p][prog]), m*1e3,
				ratio(m, medians[p]["floor"]), ratio(m, medians[p]["floor-validate"]), ratio(m, medians[p]["handwritten"]), ratio(m, medians[p]["echovalidate"]))
		}
	}
	var bench map[string][]float64
	if *gobench != "" {
		bench = readGoBench(*gobench)
		printGoBench(bench)
	}
	var rss map[string]memCase
	if *memory != "" {
		rss = readMemory(*memory)
		printMemory(rss)
	}

	missed := false
	// verdict names the outcome of a target, noting a miss.
	verdict := func(miss bool) string {
		if miss {
			missed = true
			return "NOT MET"
		}
		return "met"
	}
	judge := func(what string, r, max float64, ok bool) {
		if !ok {
			fmt.Printf("target %s ≤ %.2f×: not measured\n", what, max)
			return
		}
		fmt.Printf("target %s ≤ %.2f×: %.3f× — %s\n", what, max, r, verdict(r > max))
	}
	fmt.Println()
	for _, t := range targets {
		m, b := medians[t.payload][t.program], medians[t.payload][t.base]
		judge(fmt.Sprintf("%s on %s ÷ %s%s", t.program, t.payload, t.base, t.note), m/b, t.max, m > 0 && b > 0)
	}
	if *gobench != "" {
		big, small := median(bench[membersBench+"/100000"]), median(bench[membersBench+"/10000"])
		judge("BenchmarkMembers/Serve/100000 ÷ Serve/10000 (ns/op)", big/small, membersMax, big > 0 && small > 0)
		judgeValue := func(what string, v, max float64, unit string, ok bool) {
			if !ok {
				fmt.Printf("target %s ≤ %g %s: not measured\n", what, max, unit)
				return
			}
			fmt.Printf("target %s ≤ %g %s: %.0f %s — %s\n", what, max, unit, v, unit, verdict(v > max))
		}
		ns, allocs := bench[serveBench], bench[serveBench+allocsKey]
		judgeValue(serveBench+" (median)", median(ns), serveMaxNs, "ns/op", len(ns) > 0)
		judgeValue(serveBench+" (median)", median(allocs), serveMaxAllocs, "allocs/op", len(allocs) > 0)
		one := median(bench[parallelBench+"@1"])
		for _, p := range parallelProcs(bench) {
			if p == 1 {
				continue
			}
			m := median(bench[parallelBench+"@"+strconv.Itoa(p)])
			share := 0.0
			if one > 0 && m > 0 {
				share = one / m / float64(p)
			}
			fmt.Printf("target %s at -cpu %d ≥ %.0f%% of the ideal %d× speed-up: %.0f%% — %s\n", parallelBench, p, 100*parallelMin, p, 100*share, verdict(share < parallelMin))
		}
	}
	if *memory != "" {
		for _, c := range rssMax {
			m, ok := rss[c.name]
			what := fmt.Sprintf("peak RSS growth, %s (%s), ÷ the input", c.what, c.name)
			if ok && m.upperBound {
				what += " (an upper bound)"
			}
			judge(what, m.rss, c.max, ok && m.rss > 0)
		}
	}
	if *processRSS != "" {
		runs := readProcessRSS(*processRSS)
		for _, prog := range []string{"fingerprint", "handwritten"} {
			r := runs[prog]
			if prog == "fingerprint" {
				judge("peak RSS of the whole fingerprint process echoing a 40 MB tool_input (GNU time %M, median) ÷ the input", median(r), processRSSMax, len(r) > 0)
			} else if len(r) > 0 {
				fmt.Printf("peak RSS of the whole %s process on the same input ÷ the input: %.3f× (median of %d)\n", prog, median(r), len(r))
			}
		}
	}
	if m, h, f := medians["mcp-300B"]["fingerprint"], medians["mcp-300B"]["handwritten"], medians["mcp-300B"]["floor"]; m > 0 && h > 0 && f > 0 {
		fmt.Printf("on the 300-byte call: handwritten is %.3f× the floor (Go, the linked packages and the work); the library adds %.3f× on top (fingerprint ÷ handwritten)\n", h/f, m/h)
	}
	if missed && *strict {
		os.Exit(1)
	}
}

// readProcessRSS returns, by program, each run's peak RSS as a multiple
// of its input, from lines "program KiB input-bytes".
func readProcessRSS(name string) map[string][]float64 {
	b, err := os.ReadFile(name)
	if err != nil {
		fail(err)
	}
	runs := map[string][]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		kib, err1 := strconv.ParseFloat(f[1], 64)
		in, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil || in <= 0 {
			continue
		}
		runs[f[0]] = append(runs[f[0]], kib*1024/in)
	}
	return runs
}

// membersBench and parallelBench are the names (without the -N GOMAXPROCS
// suffix) of the Go benchmarks report reads; parallelBench is listed by
// GOMAXPROCS, as parallelBench+"@N".
const (
	membersBench  = "BenchmarkMembers/Serve"
	serveBench    = "BenchmarkServe/mcp-300B"
	parallelBench = "BenchmarkServeParallel"
	// allocsKey follows a benchmark's name for its allocs/op figures.
	allocsKey = " allocs/op"
)

// benchLine matches a result line of `go test -bench`: name with its
// optional -GOMAXPROCS suffix, iterations, ns/op, and allocs/op when the
// line has it.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-(\d+))?\s+\d+\s+([\d.]+) ns/op(?:.*?\s(\d+) allocs/op)?`)

// readGoBench returns every ns/op figure of the file, by benchmark name
// without its GOMAXPROCS suffix, and for BenchmarkServeParallel by name and
// GOMAXPROCS ("BenchmarkServeParallel@2"; no suffix means 1); and every
// allocs/op figure by the same key followed by allocsKey.
func readGoBench(name string) map[string][]float64 {
	f, err := os.Open(name)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	out := map[string][]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ns, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			continue
		}
		key := m[1]
		if key == parallelBench {
			procs := cmp.Or(m[2], "1")
			key += "@" + procs
		}
		out[key] = append(out[key], ns)
		if m[4] != "" {
			if a, err := strconv.ParseFloat(m[4], 64); err == nil {
				out[key+allocsKey] = append(out[key+allocsKey], a)
			}
		}
	}
	if err := sc.Err(); err != nil {
		fail(err)
	}
	return out
}

// printGoBench prints the medians of BenchmarkMembers/Serve and
// BenchmarkServeParallel, the latter with its scaling over 1 CPU.
func printGoBench(bench map[string][]float64) {
	fmt.Println()
	fmt.Println("in process (go test -bench; median ns/op over the rounds):")
	for _, n := range []string{"1000", "10000", "100000"} {
		if ts := bench[membersBench+"/"+n]; len(ts) > 0 {
			fmt.Printf("  %-40s %3d runs %14.0f ns/op\n", membersBench+"/"+n, len(ts), median(ts))
		}
	}
	if ts := bench[serveBench]; len(ts) > 0 {
		fmt.Printf("  %-40s %3d runs %14.0f ns/op %5.0f allocs/op\n", serveBench, len(ts), median(ts), median(bench[serveBench+allocsKey]))
	}
	one := median(bench[parallelBench+"@1"])
	for _, p := range parallelProcs(bench) {
		ts := bench[parallelBench+"@"+strconv.Itoa(p)]
		m := median(ts)
		fmt.Printf("  %-40s %3d runs %14.0f ns/op", fmt.Sprintf("%s, -cpu %d", parallelBench, p), len(ts), m)
		if one > 0 && p > 1 {
			fmt.Printf("  (ideal %.0f ns/op = 1-CPU ÷ %d; speed-up %.2f× of %d×, %.0f%% of ideal)", one/float64(p), p, one/m, p, 100*one/m/float64(p))
		}
		fmt.Println()
	}
}

// parallelProcs returns the -cpu values BenchmarkServeParallel ran at, in
// order.
func parallelProcs(bench map[string][]float64) []int {
	var procs []int
	for k := range bench {
		if p, ok := strings.CutPrefix(k, parallelBench+"@"); ok {
			if n, err := strconv.Atoi(p); err == nil {
				procs = append(procs, n)
			}
		}
	}
	slices.Sort(procs)
	return procs
}

// memCase is one case of TestServeMemory100MB as its log line gives it.
type memCase struct {
	input, heap, rss float64 // input in MB, heap and RSS growth in multiples of it
	upperBound       bool    // the RSS figure is the process's peak since it started
	line             string
}

// memLine matches TestServeMemory100MB's log line for one case.
var memLine = regexp.MustCompile(`(\w[\w-]*): input ([\d.]+) MB: peak heap growth [\d.]+ MB \(([\d.]+)× the input\), peak RSS growth [\d.]+ MB \(([\d.]+)× the input\)`)

// readMemory returns TestServeMemory100MB's cases by name, from the
// output of go test -v.
func readMemory(name string) map[string]memCase {
	b, err := os.ReadFile(name)
	if err != nil {
		fail(err)
	}
	out := map[string]memCase{}
	for line := range strings.Lines(string(b)) {
		m := memLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var c memCase
		c.input, _ = strconv.ParseFloat(m[2], 64)
		c.heap, _ = strconv.ParseFloat(m[3], 64)
		c.rss, _ = strconv.ParseFloat(m[4], 64)
		c.upperBound = strings.Contains(line, "upper bound")
		c.line = strings.TrimSpace(line[strings.Index(line, m[0]):])
		out[m[1]] = c
	}
	return out
}

// printMemory prints the memory test's cases.
func printMemory(cases map[string]memCase) {
	fmt.Println()
	fmt.Println("memory (TestServeMemory100MB, one child process per case):")
	for _, n := range slices.Sorted(maps.Keys(cases)) {
		fmt.Println("  " + cases[n].line)
	}
	if len(cases) == 0 {
		fmt.Println("  (no case reported: did the test run?)")
	}
}

func ratio(m, base float64) string {
	if base == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", m/base)
}

// median returns the median of ts, 0 when there is none.
func median(ts []float64) float64 {
	if len(ts) == 0 {
		return 0
	}
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
