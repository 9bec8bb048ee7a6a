package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// envInNetNS marks a process that [EnterLoopbackNetNS] restarted inside a
// new network namespace.
const envInNetNS = "HOOK_E2E_IN_NETNS"

// InLoopbackNetNS reports whether this process was restarted by
// [EnterLoopbackNetNS] in a network namespace that has only loopback.
func InLoopbackNetNS() bool { return os.Getenv(envInNetNS) == "1" }

// netnsWorks reports whether `unshare -n` and `ip` work here.
func netnsWorks() bool {
	if _, err := exec.LookPath("ip"); err != nil {
		return false
	}
	return exec.Command("unshare", "-n", "true").Run() == nil
}

// EnterLoopbackNetNS restarts the running program (with the same
// arguments and environment) inside a new network namespace that holds
// only a loopback interface, so that nothing it starts can reach any
// address but 127.0.0.1. On success it does not return. It returns nil
// without restarting when the process already runs in such a namespace,
// when $HOOK_E2E_NETNS is "0", or when it is "auto" (the default) and
// `unshare -n` does not work here; note then says why. With
// $HOOK_E2E_NETNS=1 a namespace is required and its absence is an error.
//
// Do everything that needs the network (installing Claude Code) before
// calling it.
func EnterLoopbackNetNS() (note string, err error) {
	if InLoopbackNetNS() {
		return "running in a network namespace that has only loopback", nil
	}
	mode := os.Getenv(EnvNetNS)
	switch mode {
	case "0":
		return fmt.Sprintf("%s=0: using the host network; Claude Code is pointed only at 127.0.0.1 and its proxy refuses other hosts", EnvNetNS), nil
	case "", "auto", "1":
	default:
		return "", fmt.Errorf("e2e: %s=%q: want auto, 1 or 0", EnvNetNS, mode)
	}
	if !netnsWorks() {
		if mode == "1" {
			return "", fmt.Errorf("e2e: %s=1 but `unshare -n` (and ip) do not work here", EnvNetNS)
		}
		return "no network namespace here (`unshare -n` does not work); using the host network; Claude Code is pointed only at 127.0.0.1 and its proxy refuses other hosts", nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("e2e: finding the test binary: %w", err)
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		return "", err
	}
	argv := append([]string{"unshare", "-n", "sh", "-c", `ip link set lo up && exec "$0" "$@"`, exe}, os.Args[1:]...)
	env := append(os.Environ(), envInNetNS+"=1")
	return "", syscall.Exec(unshare, argv, env)
}
