//go:build unix

package rodagent

import (
	"errors"
	"syscall"
	"time"
)

func (p *process) kill() {
	// Chromium runs in its own process group: kill the zygote and every helper too.
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	_ = p.cmd.Process.Kill()
}

// waitGroupGone waits until no process of the browser's group is left. The
// kernel offers no event for a process group emptying, so this checks the
// condition until it holds or the deadline passes.
func (p *process) waitGroupGone(limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(-p.cmd.Process.Pid, 0); errors.Is(err, syscall.ESRCH) || !groupAlive(p.cmd.Process.Pid) {
			return
		}
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		time.Sleep(10 * time.Millisecond)
	}
	p.log.Warn("browser processes outlived the kill", "pgid", p.pid(), "err", errStillRunning)
}
