package agenttool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/rodagent/rodagent"
	"github.com/rodagent/rodagent/agenttool"
)

// The tool as a model uses it: each call is the JSON the model sent, each
// answer the text it reads. After an action the answer carries what moved.
func ExampleTool_Call() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := httptest.NewServer(shop)
	defer srv.Close()
	b, err := rodagent.Launch(ctx, rodagent.WithDownload(false))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	tool := agenttool.New(b)

	for _, input := range []string{
		`{"action":"tab_new","url":"` + srv.URL + `"}`,
		`{"action":"click","ref":"btn-add-to-cart"}`,
		`{"action":"click","ref":"btn-checkout"}`,
	} {
		out, err := tool.Call(ctx, json.RawMessage(input))
		if err != nil {
			fmt.Println(err)
			return
		}
		// Print the answer's lines about buttons and the next move (the
		// first line of a new tab names its random id and port).
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, "btn-") || strings.HasPrefix(line, "next:") {
				fmt.Println(strings.TrimSpace(line))
			}
		}
	}
	// Output:
	// btn-add-to-cart
	// btn-checkout disabled
	// click btn-add-to-cart → ready
	// ~ btn-add-to-cart name="Added"
	// click btn-checkout → disabled
	// next: element is disabled — complete what enables it, or pick another
}
