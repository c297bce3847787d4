//go:build linux

package rodagent

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// The browser gets its own process group (so Close can end every helper) and
// is killed by the kernel if this program dies without closing it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// groupAlive reports whether any process of group pgid is still running.
// Killed helpers whose parent died linger as zombies until init reaps them;
// kill(-pgid, 0) counts those, /proc tells them apart.
func groupAlive(pgid int) bool {
	dirs, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		return true
	}
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		// after "pid (comm) ": state ppid pgrp …
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			return true
		}
	}
	return false
}
