package clientrun

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// The ways [Tap.Fail] replaces the hook, to see what the client does when
// a hook fails.
const (
	// FailCrash: the hook writes a crash message on stderr, nothing on
	// stdout, and exits 1, as a program that dies does.
	FailCrash = "crash"
	// FailHang: the hook never answers; the client kills it at its
	// timeout.
	FailHang = "hang"
)

// Tap is the hook recorder: the program that the client starts in place
// of a hook command. [Tap.Run] reads its whole stdin (the hook payload the
// client wrote), runs Argv with those bytes on its stdin, passes Argv's
// stdout, stderr and exit code through unchanged, and saves in Dir, for
// the n-th invocation (n from 1): <n>.in, <n>.out, <n>.err, <n>.label,
// <n>.start and <n>.ns (when and how long the hook ran, in nanoseconds),
// <n>.spawn when Argv could not be started, and, last, <n>.code. With no
// Argv it only saves the payload and exits 0 with no output. [ReadRecords]
// reads the records back.
type Tap struct {
	// Dir is the records folder, Label names the hook in its records.
	Dir, Label string
	// Argv is the hook's command, run directly (no shell); empty records
	// only.
	Argv []string
	// Env is the hook's environment; nil means the recorder's own.
	Env []string
	// Fail, when FailCrash or FailHang, replaces the hook by one that
	// fails that way (Argv is not run).
	Fail string
}

// Run records one invocation and returns the exit code to exit with.
func (t Tap) Run(stdin io.Reader, stdoutW, stderrW io.Writer) int {
	in, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintln(stderrW, "hook recorder: reading stdin:", err)
		return 1
	}
	base, err := Claim(t.Dir, in)
	if err != nil {
		fmt.Fprintln(stderrW, "hook recorder:", err)
		return 1
	}
	os.WriteFile(base+".label", []byte(t.Label), 0o644)
	t0 := time.Now()
	os.WriteFile(base+".start", []byte(strconv.FormatInt(t0.UnixNano(), 10)), 0o644)
	var stdout, stderr bytes.Buffer
	code := 0
	switch {
	case t.Fail == FailCrash:
		fmt.Fprintln(&stderr, "panic: hook replaced by a crash (hookctl verify -fail crash)")
		code = 1
	case t.Fail == FailHang:
		// Wait to be killed at the hook's timeout.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		<-sig
		os.WriteFile(base+".ns", []byte(strconv.FormatInt(int64(time.Since(t0)), 10)), 0o644)
		return 1
	case len(t.Argv) > 0:
		cmd := exec.Command(t.Argv[0], t.Argv[1:]...)
		cmd.Env = t.Env
		cmd.Stdin = bytes.NewReader(in)
		cmd.Stdout = &stdout
		cmd.Stderr = &stderr
		code = runKillable(cmd, base, t0)
		if code < 0 {
			// It could not start: the client would have failed to spawn it.
			os.WriteFile(base+".spawn", stderr.Bytes(), 0o644)
			code = 1
		}
	}
	os.WriteFile(base+".ns", []byte(strconv.FormatInt(int64(time.Since(t0)), 10)), 0o644)
	os.WriteFile(base+".out", stdout.Bytes(), 0o644)
	os.WriteFile(base+".err", stderr.Bytes(), 0o644)
	os.WriteFile(base+".code", []byte(strconv.Itoa(code)), 0o644)
	stdoutW.Write(stdout.Bytes())
	stderrW.Write(stderr.Bytes())
	return code
}

// runKillable runs cmd and returns its exit code, or -1 with the reason
// on cmd.Stderr when it could not start. When the recorder is told to
// stop (the client kills a hook at its timeout), it kills cmd, saves how
// long it ran and exits.
func runKillable(cmd *exec.Cmd, base string, t0 time.Time) int {
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(cmd.Stderr, "hook recorder: could not start the hook:", err)
		return -1
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ee) && ee.ExitCode() >= 0:
			return ee.ExitCode()
		}
		fmt.Fprintln(cmd.Stderr, "hook recorder:", err)
		return 1
	case <-sig:
		cmd.Process.Kill()
		<-done
		os.WriteFile(base+".ns", []byte(strconv.FormatInt(int64(time.Since(t0)), 10)), 0o644)
		os.Exit(1)
	}
	return 1
}

// Claim saves in as the next free DIR/<n>.in and returns DIR/<n>.
func Claim(dir string, in []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for n := 1; n < 100000; n++ {
		base := filepath.Join(dir, strconv.Itoa(n))
		f, err := os.OpenFile(base+".in", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(in)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return base, err
	}
	return "", errors.New("too many invocations")
}
