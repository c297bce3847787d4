package rodagent_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rodagent/rodagent"
)

// loginServer: /login sets an HttpOnly session cookie and a localStorage
// preference; /whoami shows who the cookie says you are and what
// localStorage holds.
func loginServer(t *testing.T) *twoOrigins {
	o := newTwoOrigins(t)
	o.handle("/login", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "ada-123", Path: "/", HttpOnly: true})
		fmt.Fprint(w, `<!doctype html><p>logged in</p><script>localStorage.setItem('theme', 'dark')</script>`)
	})
	o.handle("/whoami", func(w http.ResponseWriter, r *http.Request) {
		user := "nobody"
		if c, err := r.Cookie("session"); err == nil && c.Value == "ada-123" {
			user = "ada"
		}
		fmt.Fprintf(w, `<!doctype html><p>user: %s</p><p id="theme"></p>
			<script>document.getElementById('theme').textContent = 'theme: ' + localStorage.getItem('theme')</script>`, user)
	})
	return o
}

func TestStorageStateCarriesALoginAcrossBrowsers(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 90*time.Second)
	o := loginServer(t)
	first, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	p, err := first.NewPage(ctx, o.allowed+"/login")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, rodagent.TextPresent("logged in")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "state.json")
	if err := first.SaveStorageState(ctx, file); err != nil {
		t.Fatalf("SaveStorageState: %v", err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// Playwright's shape, field by field.
	var raw struct {
		Cookies []map[string]any `json:"cookies"`
		Origins []struct {
			Origin       string `json:"origin"`
			LocalStorage []struct {
				Name, Value string
			} `json:"localStorage"`
		} `json:"origins"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Cookies) != 1 || raw.Cookies[0]["name"] != "session" || raw.Cookies[0]["httpOnly"] != true ||
		raw.Cookies[0]["domain"] != "127.0.0.1" || raw.Cookies[0]["expires"] != -1.0 || raw.Cookies[0]["sameSite"] == nil {
		t.Errorf("cookies: %s", data)
	}
	if len(raw.Origins) != 1 || raw.Origins[0].Origin != o.allowed || len(raw.Origins[0].LocalStorage) != 1 ||
		raw.Origins[0].LocalStorage[0].Name != "theme" || raw.Origins[0].LocalStorage[0].Value != "dark" {
		t.Errorf("origins: %s", data)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the state file holds session cookies and should be private: %v %v", st.Mode(), err)
	}

	second, err := rodagent.Launch(ctx, rodagent.WithDownload(false), rodagent.WithStorageState(file))
	if err != nil {
		t.Fatalf("Launch with the storage state: %v", err)
	}
	defer second.Close()
	q, err := second.NewPage(ctx, o.allowed+"/whoami")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"user: ada", "theme: dark"} {
		if err := q.Wait(ctx, rodagent.TextPresent(want)); err != nil {
			// ctx may be spent: read what the page shows with a context of its own.
			text, terr := q.Text(testCtx(t, 10*time.Second))
			t.Errorf("the second browser should be logged in (%q): %v\n%s %v", want, err, text, terr)
		}
	}
	// Closing the last tab ends Chromium's session, which deletes session
	// cookies unless the profile continues its session: the login stays.
	// (Loading the state closed a tab already: its hidden localStorage tab.)
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if cs, err := second.Cookies(ctx, o.allowed+"/"); err != nil || len(cs) != 1 {
		t.Errorf("after the last tab closed: cookies %+v (%v), want the session cookie", cs, err)
	}
	again, err := second.NewPage(ctx, o.allowed+"/whoami")
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Wait(ctx, rodagent.TextPresent("user: ada")); err != nil {
		text, terr := again.Text(testCtx(t, 10*time.Second))
		t.Errorf("closing the last tab logged the browser out: %v\n%s %v", err, text, terr)
	}
	// Loading the state contacted no server: only the visits above did.
	if n := o.hitCount(o.allowed + "/"); n != 0 {
		t.Errorf("writing localStorage should not reach the server; / was asked %d times", n)
	}
}

func TestCookiesSetReadClear(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	o := loginServer(t)
	c, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.SetCookies(ctx,
		rodagent.Cookie{Name: "session", Value: "ada-123", URL: o.allowed + "/"},
		rodagent.Cookie{Name: "pref", Value: "x", Domain: "example.com", Path: "/app", Secure: true, SameSite: "Strict",
			Expires: float64(time.Now().Add(time.Hour).Unix())})
	if err != nil {
		t.Fatalf("SetCookies: %v", err)
	}
	all, err := c.Cookies(ctx)
	if err != nil || len(all) != 2 {
		t.Fatalf("Cookies: %v %+v", err, all)
	}
	for _, tc := range []struct {
		url  string
		want int
	}{{o.allowed + "/whoami", 1}, {"https://example.com/app/x", 1}, {"http://example.com/app/x", 0}, {"https://example.com/other", 0}} {
		got, err := c.Cookies(ctx, tc.url)
		if err != nil || len(got) != tc.want {
			t.Errorf("Cookies(%s) = %+v, %v; want %d", tc.url, got, err, tc.want)
		}
	}
	p, err := c.NewPage(ctx, o.allowed+"/whoami")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, rodagent.TextPresent("user: ada")); err != nil {
		t.Errorf("the server should see the cookie: %v", err)
	}
	if err := c.ClearCookies(ctx); err != nil {
		t.Fatal(err)
	}
	if all, _ := c.Cookies(ctx); len(all) != 0 {
		t.Errorf("after ClearCookies: %+v", all)
	}
	for _, bad := range []rodagent.Cookie{{Value: "no name", URL: o.allowed}, {Name: "nowhere"}, {Name: "x", URL: "/relative"},
		{Name: "x", Domain: "example.com", SameSite: "sometimes"}} {
		if err := c.SetCookies(ctx, bad); !errors.Is(err, rodagent.ErrBadCookie) {
			t.Errorf("SetCookies(%+v): want ErrBadCookie, got %v", bad, err)
		}
	}
}

// A file Playwright wrote loads as is.
func TestStorageStateReadsPlaywrightFiles(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t, 30*time.Second)
	o := loginServer(t)
	file := filepath.Join(t.TempDir(), "pw.json")
	pw := `{"cookies":[{"name":"session","value":"ada-123","domain":"127.0.0.1","path":"/","expires":-1,
		"httpOnly":true,"secure":false,"sameSite":"Lax"}],
		"origins":[{"origin":"` + o.allowed + `","localStorage":[{"name":"theme","value":"dark"}]}]}`
	if err := os.WriteFile(file, []byte(pw), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.LoadStorageState(ctx, file); err != nil {
		t.Fatalf("LoadStorageState: %v", err)
	}
	p, err := c.NewPage(ctx, o.allowed+"/whoami")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"user: ada", "theme: dark"} {
		if err := p.Wait(ctx, rodagent.TextPresent(want)); err != nil {
			t.Errorf("%q: %v", want, err)
		}
	}
	st, err := c.StorageState(ctx)
	if err != nil || len(st.Cookies) != 1 || len(st.Origins) != 1 {
		t.Errorf("StorageState after loading: %+v %v", st, err)
	}
}
