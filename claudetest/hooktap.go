package claudetest

// The hook recorder ("hooktap"): the test binary itself, started by Claude
// Code as
//
//	CLAUDETEST_HELPER=hooktap <test binary> DIR NAME [COMMAND [ARG...]]
//
// reads its whole stdin (the hook payload Claude Code wrote), runs COMMAND
// with those bytes on its stdin, passes COMMAND's stdout, stderr and exit
// code through, and saves DIR/<n>.in, <n>.out, <n>.err, <n>.label and,
// last, <n>.code, where n numbers the invocations in DIR from 1. With no
// COMMAND it only saves the payload and exits 0 with no output.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// tap records one invocation: it reads stdin, runs argv, saves everything
// and passes the output on.
func tap(dir, label string, argv []string, stdin io.Reader, stdoutW, stderrW io.Writer) int {
	in, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintln(stderrW, "claudetest hooktap: reading stdin:", err)
		return 1
	}
	base, err := claim(dir, in)
	if err != nil {
		fmt.Fprintln(stderrW, "claudetest hooktap:", err)
		return 1
	}
	var stdout, stderr bytes.Buffer
	code := 0
	if len(argv) > 0 {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = helperFreeEnv()
		cmd.Stdin = bytes.NewReader(in)
		cmd.Stdout = &stdout
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee) && ee.ExitCode() >= 0:
			code = ee.ExitCode()
		default:
			fmt.Fprintln(&stderr, "claudetest hooktap:", err)
			code = 1
		}
	}
	os.WriteFile(base+".out", stdout.Bytes(), 0o644)
	os.WriteFile(base+".err", stderr.Bytes(), 0o644)
	os.WriteFile(base+".label", []byte(label), 0o644)
	os.WriteFile(base+".code", []byte(strconv.Itoa(code)), 0o644)
	stdoutW.Write(stdout.Bytes())
	stderrW.Write(stderr.Bytes())
	return code
}

// claim saves in as the next free DIR/<n>.in and returns DIR/<n>.
func claim(dir string, in []byte) (string, error) {
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

// helperFreeEnv returns the environment without the helper switch, for the
// hook under test.
func helperFreeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envHelper+"=") {
			env = append(env, kv)
		}
	}
	return env
}
