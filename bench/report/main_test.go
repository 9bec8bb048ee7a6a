package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func write(t *testing.T, text string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "out.txt")
	require.NoError(t, os.WriteFile(name, []byte(text), 0o600))
	return name
}

// TestReadGoBench: the ns/op of every run is kept by name without the
// GOMAXPROCS suffix, BenchmarkServeParallel's by GOMAXPROCS as well (no
// suffix meaning 1), and lines that are not results are skipped.
func TestReadGoBench(t *testing.T) {
	got := readGoBench(write(t, `goos: linux
BenchmarkMembers/Serve/1000-2         	    3000	    400000 ns/op	 120.00 MB/s	  1000 B/op	  10 allocs/op
BenchmarkMembers/Serve/10000-2        	     300	   4000000 ns/op
BenchmarkMembers/Serve/100000-2       	      30	  45000000 ns/op
BenchmarkMembers/Serve/100000-2       	      30	  47000000.5 ns/op
BenchmarkServe/mcp-300B-2             	   80000	     15000 ns/op	  20.00 MB/s	    3424 B/op	      19 allocs/op
BenchmarkServeParallel                	  100000	     12000 ns/op
BenchmarkServeParallel-2              	  200000	      6500 ns/op
--- FAIL: BenchmarkOther
PASS
`))
	assert.Equal(t, map[string][]float64{
		"BenchmarkMembers/Serve/1000":           {400000},
		"BenchmarkMembers/Serve/1000 allocs/op": {10},
		"BenchmarkMembers/Serve/10000":          {4000000},
		"BenchmarkMembers/Serve/100000":         {45000000, 47000000.5},
		"BenchmarkServe/mcp-300B":               {15000},
		"BenchmarkServe/mcp-300B allocs/op":     {19},
		"BenchmarkServeParallel@1":              {12000},
		"BenchmarkServeParallel@2":              {6500},
	}, got)
	assert.InDelta(t, 46000000.25, median(got["BenchmarkMembers/Serve/100000"]), 1e-6)
	assert.Zero(t, median(nil))
}

// TestReadMemory reads TestServeMemory100MB's log lines, measured, off
// Linux (RSS 0) and as an upper bound.
func TestReadMemory(t *testing.T) {
	got := readMemory(write(t, `=== RUN   TestServeMemory100MB/echo
    memory_test.go:248: echo: input 104.9 MB: peak heap growth 323.0 MB (3.080× the input), peak RSS growth 422.4 MB (4.028× the input), 423.7 MB allocated in total (4.04×)
    memory_test.go:248: members: input 64.9 MB: peak heap growth 825.6 MB (12.724× the input), peak RSS growth 1062.9 MB (16.380× the input), an upper bound: the peak could not be reset before Serve, 2906.8 MB allocated in total (44.80×)
    memory_test.go:248: guard: input 104.9 MB: peak heap growth 213.9 MB (2.040× the input), peak RSS growth 0 MB (0.000× the input): not measured, no /proc/self/status on this system, 213.9 MB allocated in total (2.04×)
--- PASS: TestServeMemory100MB (10.10s)
`))
	require.Len(t, got, 3)
	assert.Equal(t, 104.9, got["echo"].input)
	assert.Equal(t, 3.080, got["echo"].heap)
	assert.Equal(t, 4.028, got["echo"].rss)
	assert.False(t, got["echo"].upperBound)
	assert.Equal(t, 16.380, got["members"].rss)
	assert.True(t, got["members"].upperBound)
	assert.Zero(t, got["guard"].rss, "not measured")
	assert.Contains(t, got["echo"].line, "echo: input 104.9 MB")
}
