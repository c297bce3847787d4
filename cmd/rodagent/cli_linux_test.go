//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const signInPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Sign in</title></head>
<body><main><h1>Sign in</h1>
<form id="f" action="/welcome" aria-label="Sign in">
  <label for="email">Email</label> <input id="email" name="email">
  <label for="pw">Password</label> <input id="pw" name="pw" type="password">
  <label><input type="checkbox" id="remember" name="remember"> Remember me</label>
  <input type="hidden" name="device" id="device">
  <button type="submit">Sign in</button>
</form>
<button type="button">Help</button> <button type="button">Help</button>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  if (document.getElementById('remember').checked) {
    document.getElementById('device').value = confirm('Remember this device?') ? 'yes' : 'no';
  }
});
</script></main></body></html>`

// sessionProcs lists the live (non-zombie) processes of a process session:
// the background server started with setsid leads one, and its browser's
// processes stay in it.
func sessionProcs(sid int) []int {
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
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
		f := strings.Fields(s[i+1:]) // state ppid pgrp session …
		if len(f) < 4 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if n, _ := strconv.Atoi(f[3]); n == sid {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
			out = append(out, pid)
		}
	}
	return out
}

// TestCLISignIn runs the sign-in task the way a shell script does: one
// process per step, all sharing the session's background browser, then stop
// must leave no process of that session behind.
func TestCLISignIn(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	site := http.NewServeMux()
	site.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, signInPage)
	})
	site.HandleFunc("/welcome", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Welcome</title><main><h1>Welcome</h1><p>Signed in as %s (password %d chars, device %v)</p><button>Sign out</button></main>`,
			strings.ReplaceAll(r.FormValue("email"), "<", ""), len(r.FormValue("pw")), r.FormValue("device") == "yes")
	})
	srv := httptest.NewServer(site)
	defer srv.Close()

	state := t.TempDir()
	name := fmt.Sprintf("e2e-%d", time.Now().UnixNano())
	env := append(os.Environ(), "RODAGENT_STATE_DIR="+state, "RODAGENT_SESSION="+name)
	rd := func(args ...string) (string, string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("rodagent %v: %v", args, err)
		}
		return out.String(), errb.String(), code
	}
	ok := func(args ...string) string {
		t.Helper()
		out, errs, code := rd(args...)
		if code != 0 {
			t.Fatalf("rodagent %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, errs)
		}
		return out
	}
	var serverPID int
	t.Cleanup(func() {
		// On a failure midway: stop the session, and end whatever of it is
		// left (only processes of the session this test started).
		rd("stop")
		if serverPID > 0 {
			for _, pid := range sessionProcs(serverPID) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})

	// The first step launches the session's browser, then loads the page.
	// Its time is not this test's subject: with two whole suites sharing two
	// cores (.ci/concurrent) the launch and load took past the default 60 s
	// once, so it gets a budget for work rather than the default.
	if out := ok("open", "--timeout", "150s", srv.URL+"/"); !strings.Contains(out, "open → ready") {
		t.Errorf("open: %s", out)
	}
	var st session
	b, err := os.ReadFile(filepath.Join(state, name+".json"))
	if err != nil || json.Unmarshal(b, &st) != nil || st.PID == 0 || !strings.HasPrefix(st.Addr, "127.0.0.1:") {
		t.Fatalf("session file: %s %v", b, err)
	}
	serverPID = st.PID
	for _, ext := range []string{".json", ".token"} {
		if fi, err := os.Stat(filepath.Join(state, name+ext)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s should be 0600: %v %v", ext, fi.Mode(), err)
		}
	}

	snap := ok("snapshot")
	for _, ref := range []string{"inp-email", "inp-password", "chk-remember-me", "btn-sign-in"} {
		if !strings.Contains(snap, ref) {
			t.Fatalf("snapshot lacks %s:\n%s", ref, snap)
		}
	}
	if out := ok("type", "inp-email", "me@example.com"); !strings.Contains(out, `~ inp-email value="me@example.com"`) {
		t.Errorf("type answers with what moved:\n%s", out)
	}
	ok("fill", `label="Password"`, "hunter22")
	ok("check", "chk-remember-me")
	ok("dialog", "accept")
	if out := ok("click", "btn-sign-in"); !strings.Contains(out, "click btn-sign-in → ready") {
		t.Errorf("click: %s", out)
	}
	ok("wait", "--url", "/welcome")
	if out := ok("wait", "--text", "Signed in as me@example.com (password 8 chars, device true)", "--timeout", "15s"); !strings.Contains(out, "wait → ready") {
		t.Errorf("wait: %s", out)
	}
	if out := ok("snapshot", "--full"); !strings.Contains(out, "btn-sign-out") {
		t.Errorf("snapshot after sign-in:\n%s", out)
	}
	// Back to the form in the same tab: its refs are good again after a look.
	ok("open", srv.URL+"/")
	ok("snapshot")
	ok("type", "inp-email", "again@example.com")
	ok("open", srv.URL+"/welcome?email=x")

	// Failures exit with their status's code and say the next move.
	out, errs, code := rd("click", "btn-sign-in")
	if code != 12 || !strings.Contains(errs, "page_changed") || !strings.Contains(errs, "next:") {
		t.Errorf("a ref of the sign-in page after navigating: exit %d, %q %q", code, out, errs)
	}
	if _, errs, code := rd("click", "btn-never-issued"); code != 10 || !strings.Contains(errs, "not_found") {
		t.Errorf("unknown ref: exit %d, %s", code, errs)
	}
	if _, _, code := rd("click"); code != exitUsage {
		t.Errorf("click without a target: exit %d", code)
	}
	out, _, code = rd("click", "--json", "btn-never-issued")
	var failure map[string]any
	if code != 10 || json.Unmarshal([]byte(out), &failure) != nil || failure["status"] != "not_found" {
		t.Errorf("--json failure: exit %d %q", code, out)
	}

	shot := filepath.Join(t.TempDir(), "page.png")
	ok("screenshot", "--annotate", shot)
	if png, err := os.ReadFile(shot); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screenshot file: %v", err)
	}
	var tabs struct {
		Tabs []struct {
			ID     string `json:"targetId"`
			Origin string `json:"origin"`
		} `json:"tabs"`
	}
	if err := json.Unmarshal([]byte(ok("tabs", "--json")), &tabs); err != nil || len(tabs.Tabs) != 1 || tabs.Tabs[0].Origin != srv.URL {
		t.Errorf("tabs --json: %+v %v", tabs, err)
	}

	// One background server served every step; the browser runs in its session.
	if b, _ := os.ReadFile(filepath.Join(state, name+".json")); !bytes.Contains(b, []byte(`"pid":`+strconv.Itoa(serverPID))) {
		t.Errorf("a second server was started: %s", b)
	}
	procs := sessionProcs(serverPID)
	if len(procs) < 2 {
		t.Fatalf("expected the server and its browser in session %d, found %v", serverPID, procs)
	}

	if out := ok("stop"); !strings.Contains(out, "stopped") {
		t.Errorf("stop: %s", out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for left := sessionProcs(serverPID); len(left) > 0; left = sessionProcs(serverPID) {
		if time.Now().After(deadline) {
			t.Fatalf("processes left after stop: %v (of %v)", left, procs)
		}
		time.Sleep(50 * time.Millisecond) // no event tells a process of another parent has exited
	}
	for _, ext := range []string{".json", ".token"} {
		if _, err := os.Stat(filepath.Join(state, name+ext)); !os.IsNotExist(err) {
			t.Errorf("%s left after stop: %v", ext, err)
		}
	}
	if out := ok("stop"); !strings.Contains(out, "not running") {
		t.Errorf("stop with nothing running: %s", out)
	}
	if _, _, code := rd("status"); code != exitNoServe {
		t.Errorf("status with nothing running: exit %d", code)
	}
}

// descendants lists the live processes below pid, by parent links.
func descendants(pid int) []int {
	parent := map[int]int{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		if i < 0 || len(f) < 2 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		p, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		parent[p], _ = strconv.Atoi(f[1])
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// TestServeShutsDownOnSignal: SIGTERM to `rodagent serve` stops taking
// requests, closes the browser and removes the session files.
func TestServeShutsDownOnSignal(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	state := t.TempDir()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	cmd := exec.Command(bin, "serve", "--session", "sig", "--state-dir", state, "--addr", "127.0.0.1:0", "--token", "tok-123", "--ready-fd", "3")
	cmd.ExtraFiles = []*os.File{pw}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	t.Cleanup(func() {
		for _, p := range descendants(cmd.Process.Pid) {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	_ = pr.SetReadDeadline(time.Now().Add(30 * time.Second))
	if line, err := io.ReadAll(io.LimitReader(pr, 6)); err != nil || string(line) != "ready\n" {
		t.Fatalf("serve did not get ready: %q %v\n%s", line, err, stderr.String())
	}
	s := &session{Name: "sig", Dir: state}
	tok, ok, err := s.load()
	if !ok || err != nil || tok != "tok-123" {
		t.Fatalf("session files: %q %v %v", tok, ok, err)
	}
	req, _ := http.NewRequest("POST", "http://"+s.Addr+"/start", nil)
	req.Header.Set("Authorization", "Bearer tok-123")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("start: %v %v", res, err)
	}
	res.Body.Close()
	kids := descendants(cmd.Process.Pid)
	if len(kids) == 0 {
		t.Fatalf("no browser processes under serve (pid %d)", cmd.Process.Pid)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("serve exited with %v\n%s", err, stderr.String())
	}
	for _, p := range kids {
		if err := syscall.Kill(p, 0); err == nil {
			if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p)); !bytes.Contains(b, []byte(") Z")) {
				t.Errorf("browser process %d outlived serve", p)
			}
		}
	}
	if _, ok, _ := s.load(); ok {
		t.Errorf("session files left after shutdown")
	}
}
