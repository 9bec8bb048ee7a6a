// Command httplatency measures, for bench/run.sh, what one hook call
// costs over HTTP next to a command hook's process start, on the same
// payload and the same answer:
//
//   - the http hook: the fingerprint handler behind hookhttp.Handler in a
//     server process of its own on 127.0.0.1, called by one client over
//     one kept-alive connection, one call after the other, as Claude Code
//     calls a hook (latency: p50, p90, p99);
//   - the command hook: the fingerprint binary started for each call with
//     the payload on stdin, waited for, its answer read (the same
//     percentiles);
//   - throughput: as many clients as the machine has cores, each on its
//     own kept-alive connection, for a fixed time; calls per second of
//     the server process's CPU time (user + system), that is per core.
//
// Every answer is checked against the command hook's answer, so that the
// numbers are those of correct calls.
//
// Usage: httplatency -payload FILE -hook FINGERPRINT-BINARY [-n 2000]
// [-runs 200] [-load 3s] [-strict]. With -strict it exits 1 when a target
// is missed: http p50 ≤ 0.25 ms, and the http hook's p50 at least ten
// times below the command hook's.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hookhttp"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		if err := serve(); err != nil {
			fmt.Fprintln(os.Stderr, "httplatency serve:", err)
			os.Exit(1)
		}
		return
	}
	payload := flag.String("payload", "", "the PreToolUse payload to send")
	hookBin := flag.String("hook", "", "the fingerprint command hook binary")
	n := flag.Int("n", 2000, "http calls timed one after the other")
	runs := flag.Int("runs", 200, "command hook runs timed")
	load := flag.Duration("load", 3*time.Second, "length of the throughput phase")
	strict := flag.Bool("strict", false, "exit 1 when a target is missed")
	flag.Parse()
	if *payload == "" || *hookBin == "" {
		flag.Usage()
		os.Exit(2)
	}
	ok, err := measure(*payload, *hookBin, *n, *runs, *load)
	if err != nil {
		fmt.Fprintln(os.Stderr, "httplatency:", err)
		os.Exit(1)
	}
	if !ok && *strict {
		os.Exit(1)
	}
}

// serve is the server process: the fingerprint hook on a loopback port it
// prints on stdout, and its own CPU time at /cpu.
func serve() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/hook", hookhttp.Handler(hook.PreToolUseFunc(fingerprint), nil))
	mux.HandleFunc("/cpu", func(w http.ResponseWriter, r *http.Request) {
		ns, err := cpuTime()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, ns)
	})
	fmt.Println(ln.Addr().String())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: time.Minute}
	// The parent closes stdin to stop the server.
	go func() { io.Copy(io.Discard, os.Stdin); hs.Close() }()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// fingerprint is examples/fingerprint's handler.
func fingerprint(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	if _, tool, ok := hook.SplitMCPToolName(e.ToolName); !ok || tool != "listen_here" {
		return nil, nil
	}
	sum := sha256.Sum256([]byte(e.Cwd))
	upd, err := e.Merge(map[string]string{"fingerprint": hex.EncodeToString(sum[:8])})
	if err != nil {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
}

func measure(payloadFile, hookBin string, n, runs int, load time.Duration) (bool, error) {
	payload, err := os.ReadFile(payloadFile)
	if err != nil {
		return false, err
	}
	body := bytes.TrimRight(payload, "\n") // Claude Code sends no newline

	// The command hook, first: its answer is the reference.
	want, err := runHook(hookBin, payload)
	if err != nil {
		return false, err
	}
	want = bytes.TrimSuffix(want, []byte("\n"))
	if len(want) == 0 {
		return false, errors.New("the command hook answered nothing")
	}

	self, err := os.Executable()
	if err != nil {
		return false, err
	}
	srv := exec.Command(self, "serve")
	stdin, err := srv.StdinPipe()
	if err != nil {
		return false, err
	}
	stdout, err := srv.StdoutPipe()
	if err != nil {
		return false, err
	}
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		return false, err
	}
	defer func() { stdin.Close(); srv.Wait() }()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return false, fmt.Errorf("server address: %w", err)
	}
	base := "http://" + strings.TrimSpace(addr)

	// Latency: one client, one connection, calls one after the other.
	client := newClient()
	for range 200 { // warm-up: connection, caches, the server's heap
		if err := call(client, base+"/hook", body, want); err != nil {
			return false, err
		}
	}
	httpTimes := make([]time.Duration, n)
	for i := range httpTimes {
		t0 := time.Now()
		if err := call(client, base+"/hook", body, want); err != nil {
			return false, err
		}
		httpTimes[i] = time.Since(t0)
	}

	cmdTimes := make([]time.Duration, runs)
	for i := range cmdTimes {
		t0 := time.Now()
		got, err := runHook(hookBin, payload)
		if err != nil {
			return false, err
		}
		cmdTimes[i] = time.Since(t0)
		if !bytes.Equal(bytes.TrimSuffix(got, []byte("\n")), want) {
			return false, errors.New("the command hook's answers differ between runs")
		}
	}

	// Throughput per core of the server.
	clients := runtime.NumCPU()
	cpu0, err := serverCPU(client, base)
	if err != nil {
		return false, err
	}
	var done atomic.Int64
	var failed atomic.Value
	stop := time.Now().Add(load)
	t0 := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			c := newClient()
			for time.Now().Before(stop) {
				if err := call(c, base+"/hook", body, want); err != nil {
					failed.Store(err)
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	wall := time.Since(t0)
	if err, _ := failed.Load().(error); err != nil {
		return false, err
	}
	cpu1, err := serverCPU(client, base)
	if err != nil {
		return false, err
	}
	cpu := time.Duration(cpu1 - cpu0)

	h50, h90, h99 := pct(httpTimes, 50), pct(httpTimes, 90), pct(httpTimes, 99)
	c50, c90, c99 := pct(cmdTimes, 50), pct(cmdTimes, 90), pct(cmdTimes, 99)
	fmt.Printf("payload: %s (%d bytes); answer: %d bytes, identical over both transports\n", payloadFile, len(body), len(want))
	fmt.Printf("%-34s %10s %10s %10s\n", "per call", "p50", "p90", "p99")
	fmt.Printf("%-34s %10s %10s %10s\n", fmt.Sprintf("http hook, keep-alive (%d calls)", n), ms(h50), ms(h90), ms(h99))
	fmt.Printf("%-34s %10s %10s %10s\n", fmt.Sprintf("command hook, process (%d runs)", runs), ms(c50), ms(c90), ms(c99))
	ratio := float64(c50) / float64(h50)
	fmt.Printf("command ÷ http at p50: %.1f×\n", ratio)
	perCore := float64(done.Load()) / cpu.Seconds()
	fmt.Printf("throughput: %d calls in %v from %d clients = %.0f calls/s; server CPU %v = %.0f calls per CPU-second (per core)\n",
		done.Load(), wall.Round(time.Millisecond), clients, float64(done.Load())/wall.Seconds(), cpu.Round(time.Millisecond), perCore)
	ok := true
	check := func(met bool, what string) {
		word := "met"
		if !met {
			word, ok = "MISSED", false
		}
		fmt.Printf("target %-44s %s\n", what+":", word)
	}
	check(h50 <= 250*time.Microsecond, "http p50 ≤ 0.25 ms")
	check(ratio >= 10, "http p50 ≥ 10× faster than the command hook")
	return ok, nil
}

func newClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}}
}

// call posts body as Claude Code does and checks the answer.
func call(c *http.Client, url string, body, want []byte) error {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/plain, */*")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
		return fmt.Errorf("http answer %d %q, want the command hook's %q", resp.StatusCode, got, want)
	}
	return nil
}

func runHook(bin string, payload []byte) ([]byte, error) {
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(payload)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %w", bin, err)
	}
	return out.Bytes(), nil
}

func serverCPU(c *http.Client, base string) (int64, error) {
	resp, err := c.Get(base + "/cpu")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(string(b), 10, 64)
}

// pct returns the p-th percentile of ds (nearest rank).
func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond)) }
