// Command adapter is a deterministic site script: it files an expense on a
// page it serves itself, naming every element with semantic locators (no CSS,
// no refs) and branching on the typed status of each action.
//
//	go run ./examples/adapter
package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/rodagent/rodagent"
)

//go:embed page.html
var page []byte

// The script's locators, kept as text the way a script would keep them in
// configuration; ParseLocator turns each into a typed locator.
var config = map[string]string{
	"amount":       `label="Amount"`,
	"category":     `label="Category"`,
	"reimbursable": `role=checkbox[name="Reimbursable"]`,
	"save":         `role=button[name="Save expense"]`,
	"accept":       `role=button[name="Accept"][landmark="dialog \"Cookie notice\""]`,
	"status":       `testid=status`,
}

func main() {
	if err := run(); err != nil {
		log.SetFlags(0)
		log.Fatal("adapter: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	loc := map[string]rodagent.Locator{}
	for k, v := range config {
		l, err := rodagent.ParseLocator(v)
		if err != nil {
			return err
		}
		loc[k] = l
	}

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

	// attempt runs one step and branches on its status: a cookie notice that
	// covers the form is dismissed once, then the step is tried again.
	dismissed := false
	attempt := func(name string, do func() (rodagent.ActionStatus, error)) error {
		st, err := do()
		if errors.Is(err, rodagent.ErrObscured) && !dismissed {
			fmt.Printf("%s: %s — %v\n", name, st, err)
			if st, err = p.Locate(loc["accept"]).Click(ctx); err != nil {
				return fmt.Errorf("dismissing the notice: %w", err)
			}
			fmt.Println("accept cookie notice:", st)
			dismissed = true
			st, err = do()
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Printf("%s: %s\n", name, st)
		return nil
	}

	if err := attempt("reimbursable", func() (rodagent.ActionStatus, error) {
		return p.Locate(loc["reimbursable"]).Check(ctx)
	}); err != nil {
		return err
	}
	if err := attempt("amount", func() (rodagent.ActionStatus, error) {
		return p.Locate(loc["amount"]).Type(ctx, "123.45")
	}); err != nil {
		return err
	}
	// Save stays disabled until the form is complete: the status says so.
	if st, err := p.Locate(loc["save"]).Click(ctx); errors.Is(err, rodagent.ErrDisabled) {
		fmt.Printf("save: %s — a category is still missing\n", st)
	} else if err != nil {
		return err
	}
	if err := attempt("category", func() (rodagent.ActionStatus, error) {
		return p.Locate(loc["category"]).Select(ctx, "Software")
	}); err != nil {
		return err
	}
	if err := attempt("save", func() (rodagent.ActionStatus, error) {
		return p.Locate(loc["save"]).Click(ctx)
	}); err != nil {
		return err
	}

	status := p.Locate(loc["status"])
	if err := p.Wait(ctx, rodagent.TextPresent("Saved expense")); err != nil {
		return err
	}
	text, err := status.Text(ctx)
	if err != nil {
		return err
	}
	fmt.Println("status:", text)
	if !strings.HasPrefix(text, "Saved expense #42: 123.45 for software, reimbursable") {
		return fmt.Errorf("unexpected status %q", text)
	}
	return nil
}
