//go:build windows

package rodagent

import (
	"syscall"
	"time"
)

func sysProcAttr() *syscall.SysProcAttr { return nil }

func (p *process) kill() { _ = p.cmd.Process.Kill() }

func (p *process) waitGroupGone(time.Duration) {}
