package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rodagent/rodagent"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// buildBinary builds rodagent once per test binary: the end-to-end tests run
// it as separate processes, as a shell script would.
func buildBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "rodagent-bin-")
		if buildErr != nil {
			return
		}
		builtBin = filepath.Join(buildDir, "rodagent")
		out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			buildErr = &buildFailure{out: string(out), err: err}
		}
	})
	if buildErr != nil {
		t.Fatalf("building rodagent: %v", buildErr)
	}
	return builtBin
}

type buildFailure struct {
	out string
	err error
}

func (b *buildFailure) Error() string { return b.err.Error() + "\n" + b.out }

func TestLoopbackOnly(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"127.0.0.1:9322", "127.0.0.1:9322"},
		{"localhost:0", "127.0.0.1:0"},
		{":8080", "127.0.0.1:8080"},
		{"0.0.0.0:9322", ""},
		{"192.168.1.2:80", ""},
		{"[::]:80", ""},
		{"example.com:80", ""},
		{"nonsense", ""},
	} {
		got, err := loopback(tc.in)
		if got != tc.want || (tc.want == "") != (err != nil) {
			t.Errorf("loopback(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestServeRefusesOtherAddresses(t *testing.T) {
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "--addr", "0.0.0.0:0", "--state-dir", t.TempDir()}, nil, io.Discard, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "127.0.0.1 only") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

func TestFlagsAnywhere(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  string
		json bool
	}{
		{[]string{"btn-a", "--json"}, "btn-a", true},
		{[]string{"--json", "btn-a"}, "btn-a", true},
		{[]string{"inp-a", "--", "--json"}, "inp-a|--json", false},
		{[]string{"--session", "s1", "inp-a", "x y"}, "inp-a|x y", false},
	} {
		c := &cli{verb: "type", stderr: io.Discard}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("session", "default", "")
		fs.String("state-dir", t.TempDir(), "")
		fs.BoolVar(&c.json, "json", false, "")
		pos, err := c.parse(fs, tc.args, 1, -1)
		if err != nil || strings.Join(pos, "|") != tc.pos || c.json != tc.json {
			t.Errorf("%q: %q json=%v %v", tc.args, pos, c.json, err)
		}
	}
}

// Every action status of the library has its own documented exit code.
func TestExitCodesCoverStatuses(t *testing.T) {
	statuses := []rodagent.ActionStatus{rodagent.NotFound, rodagent.StaleRefUnresolved, rodagent.PageChanged,
		rodagent.ZeroRect, rodagent.NotVisible, rodagent.Obscured, rodagent.Disabled, rodagent.NotEditable,
		rodagent.NotASelect, rodagent.Ambiguous, rodagent.FrameUnreachable, rodagent.UnsupportedKey,
		rodagent.NoSuchTab, rodagent.Timeout, rodagent.NativeBackendUnavailable, rodagent.NotChanged}
	var help bytes.Buffer
	printHelp(&help)
	seen := map[int]string{}
	for _, s := range statuses {
		code, ok := exitCodes[string(s)]
		if !ok || code < 10 {
			t.Errorf("%s has no exit code of its own", s)
		}
		if prev, dup := seen[code]; dup {
			t.Errorf("%s and %s share exit code %d", s, prev, code)
		}
		seen[code] = string(s)
		if !strings.Contains(help.String(), " "+string(s)) {
			t.Errorf("help does not document %s", s)
		}
	}
	for _, v := range verbs {
		if !strings.Contains(help.String(), "e.g. "+v.example) {
			t.Errorf("help lacks the example of %s", v.name)
		}
	}
}

func TestSessionFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s, err := newSession("work-1", dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir should be 0700: %v %v", fi.Mode(), err)
	}
	s.Addr, s.PID = "127.0.0.1:1234", 42
	if err := s.writeToken("tok"); err != nil {
		t.Fatal(err)
	}
	if err := s.writeAddr(); err != nil {
		t.Fatal(err)
	}
	r := &session{Name: "work-1", Dir: dir}
	tok, ok, err := r.load()
	if err != nil || !ok || tok != "tok" || r.Addr != s.Addr || r.PID != 42 {
		t.Errorf("load: %q %v %v %+v", tok, ok, err, r)
	}
	r.PID = 7 // another server's files are not removed
	r.remove()
	if _, ok, _ := s.load(); !ok {
		t.Errorf("remove took another process's files")
	}
	s.remove()
	if _, ok, _ := s.load(); ok {
		t.Errorf("remove left the files")
	}
	if _, err := newSession("../x", dir); err == nil {
		t.Errorf("a session name with a path in it is refused")
	}
}
