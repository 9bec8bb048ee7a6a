//go:build linux

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// Linux capability and prctl numbers the helper needs (not in package
// syscall).
const (
	capDACOverride       = 1
	capSysAdmin          = 21
	prCapAmbient         = 47
	prCapAmbientClearAll = 4
	capVersion3          = 0x20080522
	// oPath is O_PATH (the same on every architecture Go runs Linux on
	// but sparc64): a handle on a mount that needs no read permission.
	oPath = 0x200000
)

// enterManagedNS makes cmd start in a new user and mount namespace, as
// the same user and group, with CAP_SYS_ADMIN and CAP_DAC_OVERRIDE in
// the namespace for the helper's mounts (an overlay wants both from a
// user that is not root there); it drops them before it starts Claude
// Code.
func enterManagedNS(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	a.GidMappingsEnableSetgroups = false
	a.AmbientCaps = append(a.AmbientCaps, capDACOverride, capSysAdmin)
	return nil
}

// cmdManagedNS is the namespace helper: in the private mount namespace
// it was started in, it shows the folder -src at -target (the system
// folder Claude Code reads managed settings from), then runs the command
// given after "--" in place of itself, without the capability it used.
// -target is bound over when it exists; else its nearest existing parent
// is made an overlay (lower: the parent; upper and work: a tmpfs at
// -tmp) that holds an empty -target to bind over. Writes through the
// overlay go to that tmpfs: the real folders are never written. With
// -check, it only checks that -target now lists what -src holds.
func cmdManagedNS(args []string, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, managedFailPrefix+format+"\n", a...)
		return managedExitFailed
	}
	fl := flag.NewFlagSet("hookctl "+managedHelper, flag.ContinueOnError)
	fl.SetOutput(stderr)
	src := fl.String("src", "", "the scratch managed folder")
	target := fl.String("target", "", "the folder Claude Code reads")
	tmp := fl.String("tmp", "", "a folder for the overlay's tmpfs")
	check := fl.Bool("check", false, "check the mounts and exit")
	if err := fl.Parse(args); err != nil || *src == "" || *target == "" || *tmp == "" || !*check && fl.NArg() == 0 {
		return fail("usage: hookctl %s -src DIR -target DIR -tmp DIR [-check] [-- COMMAND [ARGS...]]", managedHelper)
	}
	// Mounts, capabilities and the exec belong to this thread.
	runtime.LockOSThread()
	if err := showManaged(*src, *target, *tmp); err != nil {
		return fail("%v", err)
	}
	if *check {
		if err := sameNames(*src, *target); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	bin, err := exec.LookPath(fl.Arg(0))
	if err != nil {
		return fail("%v", err)
	}
	if err := dropCaps(); err != nil {
		return fail("dropping the capabilities of the mounts: %v", err)
	}
	err = syscall.Exec(bin, fl.Args(), os.Environ())
	return fail("starting %s: %v", bin, err)
}

// showManaged mounts src at target in the current (private) mount
// namespace.
func showManaged(src, target, tmp string) error {
	// Nothing mounted here may reach the namespace the user runs in.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", mountHint(err))
	}
	if fi, err := os.Stat(target); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", target)
	} else if errors.Is(err, os.ErrNotExist) {
		if err := overlayParent(target, tmp); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	if err := syscall.Mount(src, target, "", syscall.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind-mounting the scratch managed settings on %s: %w", target, mountHint(err))
	}
	// Claude Code reads it; nothing writes it.
	if err := syscall.Mount("", target, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		return fmt.Errorf("making %s read-only: %w", target, mountHint(err))
	}
	return nil
}

// overlayParent makes the nearest existing parent of the missing folder
// target an overlay whose upper layer, on a tmpfs at tmp, holds target as
// an empty folder.
func overlayParent(target, tmp string) error {
	parent := filepath.Dir(target)
	for {
		if _, err := os.Stat(parent); err == nil {
			break
		}
		if filepath.Dir(parent) == parent {
			return fmt.Errorf("no parent of %s exists", target)
		}
		parent = filepath.Dir(parent)
	}
	rel, err := filepath.Rel(parent, target)
	if err != nil {
		return err
	}
	// The mounts under parent (Docker's /etc/hosts and /etc/resolv.conf,
	// secrets a launcher mounts under /etc): an overlay shows the files
	// under them, so they are held open and put back over it.
	subs, err := holdSubmounts(parent)
	if err != nil {
		return err
	}
	defer func() {
		for _, m := range subs {
			m.f.Close()
		}
	}()
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return err
	}
	if err := syscall.Mount("tmpfs", tmp, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "mode=0755"); err != nil {
		return fmt.Errorf("mounting a tmpfs for the overlay: %w", mountHint(err))
	}
	upper, work := filepath.Join(tmp, "upper"), filepath.Join(tmp, "work")
	for _, d := range []string{filepath.Join(upper, rel), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	// The upper layer's root takes the lower's owner and mode: the
	// overlay's root folder looks as the real one does.
	if fi, err := os.Stat(parent); err == nil {
		os.Chmod(upper, fi.Mode().Perm())
	}
	opts := "lowerdir=" + overlayEscape(parent) + ",upperdir=" + overlayEscape(upper) + ",workdir=" + overlayEscape(work)
	err = syscall.Mount("overlay", parent, "overlay", 0, opts)
	if err != nil {
		// Kernels that refuse trusted.* xattrs in a user namespace want
		// the user.* ones.
		if err2 := syscall.Mount("overlay", parent, "overlay", 0, opts+",userxattr"); err2 == nil {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("%s does not exist and an overlay of %s to hold it was refused: %w", target, parent, mountHint(err))
	}
	for _, m := range subs {
		fd := "/proc/self/fd/" + strconv.Itoa(int(m.f.Fd()))
		if err := syscall.Mount(fd, m.at, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return fmt.Errorf("putting the mount at %s back over the overlay of %s: %w", m.at, parent, mountHint(err))
		}
	}
	return nil
}

// heldMount is a mount under the parent that the overlay covers: an
// O_PATH handle on it, and where it goes back.
type heldMount struct {
	at string
	f  *os.File
}

// holdSubmounts opens, with O_PATH, each outermost mount strictly under
// dir (one inside another comes back with it, bound recursively).
func holdSubmounts(dir string) ([]heldMount, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("listing the mounts under %s: %w", dir, err)
	}
	var points []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		p := unescapeMountinfo(f[4])
		if p != dir && strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/") {
			points = append(points, p)
		}
	}
	slices.Sort(points)
	points = slices.Compact(points)
	var held []heldMount
	for _, p := range points {
		if slices.ContainsFunc(held, func(h heldMount) bool { return strings.HasPrefix(p, h.at+"/") }) {
			continue
		}
		fd, err := syscall.Open(p, oPath|syscall.O_CLOEXEC, 0)
		if err != nil {
			for _, h := range held {
				h.f.Close()
			}
			return nil, fmt.Errorf("holding the mount at %s: %w", p, err)
		}
		held = append(held, heldMount{at: p, f: os.NewFile(uintptr(fd), p)})
	}
	return held, nil
}

// unescapeMountinfo decodes the octal escapes (\040 for a space) of a
// path in /proc/self/mountinfo.
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// overlayEscape escapes the characters overlayfs options separate on.
func overlayEscape(p string) string {
	return strings.NewReplacer(`\`, `\\`, `,`, `\,`, `:`, `\:`).Replace(p)
}

// mountHint adds what a refused mount usually means.
func mountHint(err error) error {
	switch {
	case errors.Is(err, syscall.EPERM):
		return fmt.Errorf("%w (user namespaces may be restricted here: kernel.apparmor_restrict_unprivileged_userns, kernel.unprivileged_userns_clone)", err)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EUSERS):
		return fmt.Errorf("%w (user.max_user_namespaces is 0 or reached)", err)
	}
	return err
}

// sameNames checks that the folder target lists the names src holds.
func sameNames(src, target string) error {
	names := func(d string) ([]string, error) {
		es, err := os.ReadDir(d)
		var out []string
		for _, e := range es {
			out = append(out, e.Name())
		}
		return out, err
	}
	want, err := names(src)
	if err != nil {
		return err
	}
	got, err := names(target)
	if err != nil {
		return err
	}
	if !slices.Equal(want, got) {
		return fmt.Errorf("%s shows %v, not the scratch managed settings %v", target, got, want)
	}
	return nil
}

// dropCaps clears this thread's ambient and inheritable capabilities, so
// that the program it execs (as a user other than root) has none.
func dropCaps() error {
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prCapAmbient, prCapAmbientClearAll, 0, 0, 0, 0); e != 0 {
		return e
	}
	hdr := struct {
		version uint32
		pid     int32
	}{version: capVersion3}
	var data [2]struct{ effective, permitted, inheritable uint32 }
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPGET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		return e
	}
	data[0].inheritable, data[1].inheritable = 0, 0
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		return e
	}
	return nil
}

// startError says why the helper did not start: the kernel's refusal of
// a user namespace (clone's EPERM, EUSERS, ENOSPC, EINVAL) or else.
func startError(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		switch errno {
		case syscall.EPERM, syscall.EACCES, syscall.EUSERS, syscall.ENOSPC, syscall.EINVAL:
			return "user namespaces unavailable: " + mountHint(err).Error()
		}
	}
	return "starting the namespace helper: " + err.Error()
}
