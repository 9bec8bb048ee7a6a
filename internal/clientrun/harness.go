package clientrun

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file holds what claudetest and codextest, the two packages that run
// a real client from go test, share around the runs: the helpers the test
// binary becomes, how many runs go at once, how long one may take, and
// how a run's log names its network.

// HelperMain runs the helper the environment variable env names, if any,
// and exits; it returns when env is unset. The test binary of pkg (its
// name, for messages) becomes a hook recorder ("hooktap": DIR NAME
// [COMMAND [ARG...]]) or an MCP probe ("mcpprobe"), so that a client can
// start them without anything being built. A package calls it from init.
func HelperMain(env, pkg string) {
	h := os.Getenv(env)
	switch h {
	case "":
		return
	case "hooktap":
		if len(os.Args) < 3 {
			fmt.Fprintln(os.Stderr, "usage: "+env+"=hooktap <binary> DIR NAME [COMMAND [ARG...]]")
			os.Exit(1)
		}
		t := Tap{Dir: os.Args[1], Label: os.Args[2], Argv: os.Args[3:], Env: envWithout(env)}
		os.Exit(t.Run(os.Stdin, os.Stdout, os.Stderr))
	case "mcpprobe":
		os.Exit(ProbeMain(os.Args[1:]))
	}
	fmt.Fprintf(os.Stderr, "%s: unknown %s=%q\n", pkg, env, h)
	os.Exit(2)
}

// envWithout returns the environment without the variable name, for the
// hook under test.
func envWithout(name string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, name+"=") {
			env = append(env, kv)
		}
	}
	return env
}

// Jobs limits how many client runs go at once: each run holds a place of
// Places while it runs.
type Jobs struct {
	// Env names the variable that sets the number (default 3).
	Env  string
	once sync.Once
	ch   chan struct{}
}

// Places returns the channel whose buffer is the runs at a time.
func (j *Jobs) Places() chan struct{} {
	j.once.Do(func() {
		n := 3
		if v, err := strconv.Atoi(os.Getenv(j.Env)); err == nil && v > 0 {
			n = v
		}
		j.ch = make(chan struct{}, n)
	})
	return j.ch
}

// RunTimeout returns the limit of one client run: the seconds the
// environment variable env gives, else 120 s.
func RunTimeout(env string) time.Duration {
	if v, err := strconv.Atoi(os.Getenv(env)); err == nil && v > 0 {
		return time.Duration(v) * time.Second
	}
	return 120 * time.Second
}

// NetNote says, for a run's log, what network the runs of client (its
// product name) use: inNS reports a loopback-only namespace, envNetNS is
// the variable that turns it off with "0", and mainCalled says the test
// binary runs under pkg.Main, which makes the namespace where it can.
func NetNote(client, pkg, envNetNS string, inNS, mainCalled bool) string {
	only := "; " + client + " is pointed only at 127.0.0.1 and its proxy refuses other hosts"
	switch {
	case inNS:
		return "in a network namespace that has only loopback"
	case os.Getenv(envNetNS) == "0":
		return envNetNS + "=0: on the host network" + only
	case mainCalled:
		return "on the host network (no network namespace here: `unshare -n` or ip does not work)" + only
	}
	return "on the host network (call " + pkg + ".Main from TestMain for a loopback-only namespace)" + only
}
