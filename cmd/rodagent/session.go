package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// A session is one background serve, named so that several agents (or
// tests) on one machine each keep their own browser. Its state lives in a
// per-user directory, readable by the user only:
//
//	<dir>/<session>.json   {"addr": "127.0.0.1:PORT", "pid": N}
//	<dir>/<session>.token  the bearer token
//	<dir>/<session>.log    the background server's output
//	<dir>/<session>.lock   held while a CLI call starts the server
type session struct {
	Name string `json:"-"`
	Dir  string `json:"-"`
	Addr string `json:"addr"`
	PID  int    `json:"pid"`
}

var sessionName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// stateDir is where session files go: the flag, else $RODAGENT_STATE_DIR,
// else $XDG_STATE_HOME/rodagent, else ~/.local/state/rodagent.
func stateDir(flagValue string) (string, error) {
	dir := flagValue
	if dir == "" {
		dir = os.Getenv("RODAGENT_STATE_DIR")
	}
	if dir == "" {
		if x := os.Getenv("XDG_STATE_HOME"); x != "" {
			dir = filepath.Join(x, "rodagent")
		}
	}
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("rodagent: no state directory (set RODAGENT_STATE_DIR): %w", err)
		}
		dir = filepath.Join(home, ".local", "state", "rodagent")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("rodagent: state directory: %w", err)
	}
	return dir, nil
}

// defaultSession is $RODAGENT_SESSION, else "default".
func defaultSession() string {
	if s := os.Getenv("RODAGENT_SESSION"); s != "" {
		return s
	}
	return "default"
}

func newSession(name, dirFlag string) (*session, error) {
	if !sessionName.MatchString(name) {
		return nil, &usageError{fmt.Sprintf("rodagent: session name %q: use letters, digits, '.', '_' or '-'", name)}
	}
	dir, err := stateDir(dirFlag)
	if err != nil {
		return nil, err
	}
	return &session{Name: name, Dir: dir}, nil
}

func (s *session) path(ext string) string { return filepath.Join(s.Dir, s.Name+ext) }

// load reads the session's address and token; ok is false when no server
// has written them.
func (s *session) load() (token string, ok bool, err error) {
	b, err := os.ReadFile(s.path(".json"))
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	if err := json.Unmarshal(b, s); err != nil {
		return "", false, fmt.Errorf("rodagent: %s: %w", s.path(".json"), err)
	}
	t, err := os.ReadFile(s.path(".token"))
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return string(t), true, nil
}

// writeToken and writeAddr write the session files, 0600, each replaced in
// one rename so a reader never sees half a file.
func (s *session) writeToken(token string) error { return writeFile(s.path(".token"), []byte(token)) }

func (s *session) writeAddr() error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return writeFile(s.path(".json"), b)
}

// remove deletes the session's files if they are still this process's.
func (s *session) remove() {
	var now session
	if b, err := os.ReadFile(s.path(".json")); err == nil && json.Unmarshal(b, &now) == nil && now.PID != s.PID {
		return
	}
	_ = os.Remove(s.path(".json"))
	_ = os.Remove(s.path(".token"))
}

func writeFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}
