// Command quickstart runs the agent loop against a page it serves itself:
// snapshot → act by ref → snapshot again, printing each snapshot and status.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	_ "embed"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/rodagent/rodagent"
)

//go:embed page.html
var page []byte

func main() {
	if err := run(); err != nil {
		log.SetFlags(0)
		log.Fatal(err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	b, err := rodagent.Launch(ctx)
	if err != nil {
		return err
	}
	defer b.Close()

	p, err := b.NewPage(ctx, "http://"+ln.Addr().String()+"/")
	if err != nil {
		return err
	}

	// 1. Look: the first snapshot of a page is the full inventory.
	snap, err := p.Snapshot(ctx)
	if err != nil {
		return err
	}
	fmt.Println("== snapshot")
	fmt.Print(snap)

	// 2. Act by ref: every action reports a typed status.
	st, err := p.Click(ctx, "btn-add-item")
	if err := report("click btn-add-item", st, err); err != nil {
		return err
	}
	st, err = p.Type(ctx, "inp-email", "me@example.com")
	if err := report(`type inp-email "me@example.com"`, st, err); err != nil {
		return err
	}
	st, err = p.Click(ctx, "chk-remember-me")
	if err := report("click chk-remember-me", st, err); err != nil {
		return err
	}

	// 3. Look again: only what moved.
	if snap, err = p.Snapshot(ctx); err != nil {
		return err
	}
	fmt.Println("== snapshot (changes)")
	fmt.Print(snap)

	// A failure is a typed status plus the next move, never a silent miss.
	st, err = p.Click(ctx, "btn-does-not-exist")
	fmt.Printf("== click btn-does-not-exist → %s: %v\n", st, err)

	st, err = p.Press(ctx, "Enter") // focus is still in the form: Enter submits it
	if err := report("press Enter", st, err); err != nil {
		return err
	}
	if snap, err = p.Snapshot(ctx); err != nil {
		return err
	}
	fmt.Println("== snapshot (changes)")
	fmt.Print(snap)
	return nil
}

func report(what string, st rodagent.ActionStatus, err error) error {
	fmt.Printf("== %s → %s\n", what, st)
	return err
}
