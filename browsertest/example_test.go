package browsertest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/browsertest"
)

// A browser test: the page gets a fresh isolated context, acts through
// locators, and Expect retries until the page shows the result. (Here t
// stands in for the test's *testing.T so the example can run.)
func Example() {
	t := &fakeT{name: "TestSubscribe"}
	t.run(func(t testing.TB) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p := browsertest.Page(t, browsertest.Serve(t, app))
		if _, err := p.Locate(rodagent.ByLabel("Email")).Type(ctx, "me@example.com"); err != nil {
			t.Fatalf("typing the email: %v", err)
		}
		if _, err := p.Locate(rodagent.ByRole("button", "Subscribe")).Click(ctx); err != nil {
			t.Fatalf("subscribing: %v", err)
		}
		browsertest.Expect(t, p, rodagent.TextPresent("Subscribed"))
	})
	fmt.Println("failed:", t.Failed())
	// Output: failed: false
}

// A failing expectation stops the test with what was expected and what the
// page showed; at cleanup the test's log gets the page's URL, a snapshot and
// the path of a screenshot.
func ExampleExpect() {
	t := &fakeT{name: "TestWelcome"}
	log := t.run(func(t testing.TB) {
		p := browsertest.Page(t, browsertest.Serve(t, app))
		browsertest.Expect(t, p, rodagent.TextPresent("Welcome"), browsertest.Within(time.Second))
	})
	fmt.Println("failed:", t.Failed())
	for _, line := range []string{`expected text "Welcome" within 1s`, "the test failed with its page at", "screenshot: ", "btn-subscribe"} {
		fmt.Printf("log mentions %q: %v\n", line, contains(log, line))
	}
	// Output:
	// failed: true
	// log mentions "expected text \"Welcome\" within 1s": true
	// log mentions "the test failed with its page at": true
	// log mentions "screenshot: ": true
	// log mentions "btn-subscribe": true
}
