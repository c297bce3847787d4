package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rodagent/rodagent"
)

// pwMCP is a Playwright MCP server (npm @playwright/mcp) started over stdio,
// driven by the same MCP client SDK an agent host would use.
type pwMCP struct {
	cs      *sdk.ClientSession
	version string
	dir     string
}

// startPlaywrightMCP starts the server installed in dir on the given
// Chromium binary: headless, profile in memory, no sandbox when root (as the
// other browsers of the bench run).
func startPlaywrightMCP(ctx context.Context, dir, bin string) (*pwMCP, error) {
	pkg := filepath.Join(dir, "node_modules", "@playwright", "mcp")
	cli := filepath.Join(pkg, "cli.js")
	if _, err := os.Stat(cli); err != nil {
		return nil, fmt.Errorf("no Playwright MCP in %s (run `npm install @playwright/mcp` there): %w", dir, err)
	}
	out, err := os.MkdirTemp("", "rodagent-bench-pwmcp-")
	if err != nil {
		return nil, err
	}
	args := []string{cli, "--headless", "--isolated", "--browser", "chromium", "--executable-path", bin,
		"--output-dir", out, "--viewport-size", "1280x720",
		// the bench's deadline bounds the run: a busy machine must not fail it
		"--timeout-navigation", "600000", "--timeout-action", "600000"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command("node", args...)
	cmd.Dir = out // its workspace root: any file it writes lands in the temp dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "rodagent-bench", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		_ = os.RemoveAll(out)
		return nil, fmt.Errorf("starting Playwright MCP: %w (stderr: %s)", err, stderr.String())
	}
	m := &pwMCP{cs: cs, dir: out}
	if b, err := os.ReadFile(filepath.Join(pkg, "package.json")); err == nil {
		var v struct{ Version string }
		if json.Unmarshal(b, &v) == nil {
			m.version = v.Version
		}
	}
	return m, nil
}

func (m *pwMCP) close() {
	_ = m.cs.Close()
	_ = os.RemoveAll(m.dir)
}

// call runs one tool and returns the text of its result as the model gets it
// (every text part, in order).
func (m *pwMCP) call(ctx context.Context, tool string, args map[string]any) (string, error) {
	res, err := m.cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("%s: %w", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	if res.IsError {
		return "", fmt.Errorf("%s: %s", tool, b.String())
	}
	return b.String(), nil
}

// snapshotYAML is the page snapshot inside a Playwright MCP tool result: the
// ```yaml block under "### Snapshot" (or "### Page state"), without the fence.
func snapshotYAML(result string) string {
	start := strings.Index(result, "```yaml\n")
	if start < 0 {
		return ""
	}
	rest := result[start+len("```yaml\n"):]
	end := strings.Index(rest, "\n```")
	if end < 0 {
		return rest
	}
	return rest[:end+1]
}

// mcpPages are the pages the MCP comparison reads: the app shell, the two
// tables, a form and two APG widgets written by others.
var mcpPages = []string{
	"appshell.html",
	"bigtable.html?rows=333",
	"bigtable.html",
	"form.html",
	"apg/content/patterns/combobox/examples/combobox-select-only.html",
	"apg/content/patterns/grid/examples/data-grids.html",
}

// peersMCP prints rodagent's snapshot text next to what Playwright MCP's
// browser_snapshot tool returns to a model, on the same pages in the same run.
func peersMCP(ctx context.Context, b *rodagent.Browser, base, dir, bin string, n int) error {
	if dir == "" {
		fmt.Println("Playwright MCP not measured: pass -playwright-mcp DIR (a directory where `npm install @playwright/mcp` ran).")
		return nil
	}
	m, err := startPlaywrightMCP(ctx, dir, bin)
	if err != nil {
		return err
	}
	defer m.close()
	fmt.Println("| page | rodagent chars, budgeted (`String`) | rodagent chars, whole (no budget) | rodagent snapshot median | Playwright MCP `browser_snapshot` result chars | of which snapshot YAML | Playwright MCP call median | result ÷ rodagent budgeted | Playwright MCP `browser_navigate` result chars (snapshot inline?) |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, path := range mcpPages {
		url := base + "/" + path
		p, err := b.NewPage(ctx, url)
		if err != nil {
			return err
		}
		s, err := p.Snapshot(ctx)
		if err != nil {
			_ = p.Close()
			return err
		}
		s, all, ours, err := fullLooks(ctx, p, n)
		if err != nil {
			return err
		}
		budgeted, whole := len(s.String()), len(all.String())

		// A tool error is a result of the comparison (Playwright MCP has fixed
		// limits of its own), printed in the row rather than ending the run.
		failed := func(err error) {
			msg, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(err.Error(), "browser_snapshot: ### Error")), "\n")
			fmt.Printf("| %s | %d | %d | %s | failed: %s | | | | |\n", path, budgeted, whole, spread(ours), strings.ReplaceAll(msg, "|", "/"))
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		nav, err := m.call(ctx, "browser_navigate", map[string]any{"url": url})
		if err != nil {
			failed(err)
			continue
		}
		var theirs []time.Duration
		var result string
		for i := 0; i < n && err == nil; i++ {
			start := time.Now()
			result, err = m.call(ctx, "browser_snapshot", map[string]any{})
			theirs = append(theirs, time.Since(start))
		}
		if err != nil {
			failed(fmt.Errorf("%w (after %s)", err, ms(theirs[len(theirs)-1])))
			continue
		}
		yaml := snapshotYAML(result)
		if yaml == "" {
			return fmt.Errorf("playwright mcp on %s: no snapshot in the browser_snapshot result:\n%.2000s", path, result)
		}
		inline := "no"
		if snapshotYAML(nav) != "" {
			inline = "yes"
		}
		fmt.Printf("| %s | %d | %d | %s | %d | %d | %s | %.1f× | %d (%s) |\n", path, budgeted, whole, spread(ours), len(result), len(yaml),
			spread(theirs), float64(len(result))/float64(budgeted), len(nav), inline)
	}
	fmt.Printf("\nPlaywright MCP: @playwright/mcp %s over stdio (`--headless --isolated --executable-path %s`), the same Chromium binary; "+
		"its `browser_snapshot` result is every text part the tool returns, the YAML is the ```yaml block in it. "+
		"rodagent: `Page.Snapshot(WithFull())` on a Launch browser; budgeted is `String()`, the text a model gets (default budget %d chars); whole is the same snapshot with `WithMaxChars` unlimited. "+
		"When `browser_navigate` does not inline the snapshot (it links a .yml file), an agent calls `browser_snapshot` to see the page. Characters are Go string bytes (UTF-8).\n", m.version, bin, rodagent.DefaultMaxChars)
	return nil
}
