package rodagent_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// groupProcs lists the live processes (not zombies) of process group pgid,
// with their command lines. A launched browser leads its own group
// (Browser.PID), so this finds exactly the processes a test launched and no
// other program's browser, whatever its command line says. Linux only: it
// reads /proc.
func groupProcs(t *testing.T, pgid int) map[int]string {
	t.Helper()
	if pgid <= 0 {
		t.Fatalf("no process group to look at (pgid %d): the Browser was not launched by this test", pgid)
	}
	return liveProcs(t, func(_ int, group int, _ string) bool { return group == pgid })
}

// profileProcs lists the live processes whose command line names dir, the
// unique temporary profile of a browser the test launched (Browser.ProfileDir).
func profileProcs(t *testing.T, dir string) map[int]string {
	t.Helper()
	if dir == "" {
		t.Fatalf("no profile directory: the Browser was not launched by this test")
	}
	return liveProcs(t, func(_ int, _ int, cmd string) bool { return strings.Contains(cmd, "--user-data-dir="+dir) })
}

// liveProcs lists the live processes (not zombies) that keep says to keep.
func liveProcs(t *testing.T, keep func(pid, pgid int, cmdline string) bool) map[int]string {
	t.Helper()
	out := map[int]string{}
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("cannot list processes in /proc: %v", err)
	}
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses.
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		g, err := strconv.Atoi(f[2])
		if err != nil {
			continue
		}
		raw, _ := os.ReadFile(d + "/cmdline")
		if cmd := strings.ReplaceAll(string(raw), "\x00", " "); keep(pid, g, cmd) {
			out[pid] = cmd
		}
	}
	return out
}

// userDataDir is the --user-data-dir switch of a browser's command line.
func userDataDir(cmdline string) string {
	for _, f := range strings.Fields(cmdline) {
		if v, ok := strings.CutPrefix(f, "--user-data-dir="); ok {
			return v
		}
	}
	return ""
}
