package clientrun

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// NetNSWorks reports whether `unshare -n` and `ip` work here, so that
// [EnterLoopbackNetNS] can make a network namespace.
func NetNSWorks() bool {
	if _, err := exec.LookPath("ip"); err != nil {
		return false
	}
	return exec.Command("unshare", "-n", "true").Run() == nil
}

// EnterLoopbackNetNS restarts the running program (same arguments and
// environment, plus marker=1) inside a new network namespace that holds
// only a loopback interface, so that neither the client it runs nor a
// hook can reach any address but 127.0.0.1. On success it does not
// return. mode is "0" (do nothing), "auto" or "" (restart when `unshare
// -n` works here, else return nil) or "1" (an error when it does not
// work). A program restarted already (marker=1 in its environment) is not
// restarted again.
func EnterLoopbackNetNS(mode, marker string) error {
	switch mode {
	case "0":
		return nil
	case "", "auto", "1":
	default:
		return fmt.Errorf("network namespace mode %q: want auto, 1 or 0", mode)
	}
	if os.Getenv(marker) == "1" {
		return nil
	}
	if !NetNSWorks() {
		if mode == "1" {
			return fmt.Errorf("a loopback-only network namespace was asked for, but `unshare -n` (and ip) do not work here")
		}
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the running program: %w", err)
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		return err
	}
	argv := append([]string{"unshare", "-n", "sh", "-c", `ip link set lo up && exec "$0" "$@"`, exe}, os.Args[1:]...)
	env := append(os.Environ(), marker+"=1")
	return syscall.Exec(unshare, argv, env)
}
