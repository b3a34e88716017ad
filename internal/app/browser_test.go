package app

// TestWebPageInChromium drives the page of mas serve in headless Chromium
// (Debian's package; scripts/test.sh installs it) against the real API
// and a private tmux server: create a session, see it active, send a
// message the stub agent reads, stop it, see it stopped. It talks to
// Chromium over --remote-debugging-pipe with the DevTools protocol, and
// leaves a screenshot in $MAS_SCREENSHOT_DIR (default: the test's temp
// directory).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mas/internal/api"
)

// cdp is a DevTools protocol connection over Chromium's debugging pipe.
type cdp struct {
	w    *os.File
	r    *bufio.Reader
	next int
}

func (c *cdp) call(t *testing.T, session, method string, params any) json.RawMessage {
	t.Helper()
	c.next++
	msg := map[string]any{"id": c.next, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	data, _ := json.Marshal(msg)
	if _, err := c.w.Write(append(data, 0)); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	for {
		raw, err := c.r.ReadBytes(0)
		if err != nil {
			t.Fatalf("%s: reading the pipe: %v", method, err)
		}
		var resp struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(bytes.TrimSuffix(raw, []byte{0}), &resp); err != nil || resp.ID != c.next {
			continue // an event, or another answer
		}
		if resp.Error != nil {
			t.Fatalf("%s: %s", method, resp.Error.Message)
		}
		return resp.Result
	}
}

// try runs JavaScript in the page and returns its value as a string.
func (c *cdp) try(t *testing.T, session, js string) (string, error) {
	t.Helper()
	res := c.call(t, session, "Runtime.evaluate", map[string]any{"expression": js, "awaitPromise": true, "returnByValue": true})
	var out struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	json.Unmarshal(res, &out)
	if out.ExceptionDetails != nil {
		return "", fmt.Errorf("%s: %s", js, res)
	}
	return fmt.Sprint(out.Result.Value), nil
}

// eval is try that fails the test on a JavaScript error.
func (c *cdp) eval(t *testing.T, session, js string) string {
	t.Helper()
	v, err := c.try(t, session, js)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// waitFor polls js (bounded) until it returns want.
func (c *cdp) waitFor(t *testing.T, session, js, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	got := ""
	for time.Now().Before(deadline) {
		if got, _ = c.try(t, session, js); got == want {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	page, _ := c.try(t, session, "document.body.innerText")
	t.Fatalf("waiting for %s == %q; last %q; page: %s", js, want, got, page)
}

// browserFixture is a mas root with a stub agent that writes what it
// reads to out/<agent>.in, on a private tmux server, and headless
// Chromium to drive pages.
type browserFixture struct {
	dir, out string
	a        *App
	c        *cdp
}

func newBrowserFixture(t *testing.T) *browserFixture {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed")
		}
		t.Skip("chromium is not installed")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir, err := os.MkdirTemp("/tmp", "mw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	root, home, out := filepath.Join(dir, "root"), filepath.Join(dir, "home"), filepath.Join(dir, "out")
	for _, d := range []string{root, home, out} {
		os.MkdirAll(d, 0o755)
	}
	stub := filepath.Join(dir, "agent")
	os.WriteFile(stub, []byte("#!/bin/sh\nstty raw -echo\nexec cat >\""+out+"/$(basename \"$(pwd -P)\").in\"\n"), 0o755)
	// A tmux server of the test's own, never the user's.
	t.Setenv("HOME", home)
	t.Setenv("TMUX_TMPDIR", dir)
	t.Setenv("TMUX", "")
	t.Cleanup(func() { exec.Command("tmux", "kill-server").Run() })

	vars := map[string]string{"MAS_ROOT": root, "MAS_AGENT_COMMAND": stub, "SHELL": "/bin/sh", "MAS_HTTP": "off"}
	a := New(Env{Getenv: func(k string) string { return vars[k] }, Cwd: dir}, &bytes.Buffer{})

	// Chromium reads commands on fd 3 and writes answers on fd 4.
	// evil.test resolves to this machine, as a rebound DNS name would.
	cmdR, cmdW, _ := os.Pipe()
	resR, resW, _ := os.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	browser := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--host-resolver-rules=MAP evil.test 127.0.0.1",
		"--remote-debugging-pipe", "--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1280,1000", "about:blank")
	browser.ExtraFiles = []*os.File{cmdR, resW}
	if err := browser.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); browser.Wait() })
	cmdR.Close()
	resW.Close()
	return &browserFixture{dir: dir, out: out, a: a, c: &cdp{w: cmdW, r: bufio.NewReader(resR)}}
}

// serve serves the API of the fixture's root with o on a fresh port, and
// returns its URL, the API and what it refused (status codes, in order).
func (f *browserFixture) serve(t *testing.T, o api.Options) (string, *api.Server, func() []int) {
	t.Helper()
	var mu sync.Mutex
	var refused []int
	srv := httptest.NewUnstartedServer(nil)
	o.Addr = srv.Listener.Addr().String()
	o.Refused = func(_ *http.Request, status int) {
		mu.Lock()
		defer mu.Unlock()
		refused = append(refused, status)
	}
	h := api.New(Backend{f.a}, o)
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, h, func() []int {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(refused)
	}
}

// open opens url in a new tab and returns its DevTools session.
func (f *browserFixture) open(t *testing.T, url string) string {
	t.Helper()
	var target struct{ TargetID string }
	json.Unmarshal(f.c.call(t, "", "Target.createTarget", map[string]any{"url": url}), &target)
	var attached struct{ SessionID string }
	json.Unmarshal(f.c.call(t, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}), &attached)
	return attached.SessionID
}

// run starts an isolated session through the API's backend, with no
// prompts, and waits until agent 21 reads its pane.
func (f *browserFixture) run(t *testing.T) string {
	t.Helper()
	run, err := Backend{f.a}.Run(context.Background(), api.RunRequest{Agents: json.RawMessage(`{}`), SessionMode: "isolated"})
	if err != nil {
		t.Fatal(err)
	}
	f.read(t, "21", "")
	return run.SessionID
}

// read waits (bounded) until agent has read exactly want.
func (f *browserFixture) read(t *testing.T, agent, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := os.ReadFile(filepath.Join(f.out, agent+".in"))
		if err == nil && string(got) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("agent %s read %q, want %q", agent, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestWebPageInChromium(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c, out := f.c, f.out
	s := f.open(t, url+"/")
	c.waitFor(t, s, `document.getElementById("health").textContent`, "API ok")

	// Create an isolated session from the form.
	c.eval(t, s, `document.querySelector("#create select[name=mode]").value = "isolated";
		document.querySelector("textarea[name=prompt-00]").value = "plan it";
		document.getElementById("create-button").click(); "ok"`)
	c.waitFor(t, s, `document.getElementById("created").textContent.startsWith("Created ")`, "true")
	id := c.eval(t, s, `document.getElementById("created").textContent.split(" ")[1]`)
	c.waitFor(t, s, fmt.Sprintf(`(document.querySelector('#sessions tr[data-id="%s"] td:nth-child(4)') || {}).textContent`, id), "active")
	if got := c.eval(t, s, `document.getElementById("created").textContent`); !strings.Contains(got, "mas session attach "+id[:8]) {
		t.Errorf("no attach hint: %q", got)
	}
	c.waitFor(t, s, `(document.querySelector('#agents tr[data-agent="21"] td:nth-child(4)') || {}).textContent`, "running")

	// The meta manager's prompt arrived once, submitted.
	if got, _ := os.ReadFile(filepath.Join(out, "00.in")); string(got) != "plan it\r" {
		t.Errorf("agent 00 read %q, want the prompt once", got)
	}

	// Send a message; HTML in it must stay text.
	msg := `<b>hello</b> $(touch pwned)`
	c.waitFor(t, s, `document.getElementById("message-session").options.length`, "1")
	js, _ := json.Marshal(msg)
	c.eval(t, s, `const f = document.getElementById("message");
		f.elements.target.value = "21"; f.elements.text.value = `+string(js)+`; f.elements.execute.checked = true;
		document.getElementById("send-button").click(); "ok"`)
	c.waitFor(t, s, `document.getElementById("sent").textContent`, "Message sent to 1/1 agents of mas-"+id[:8])
	f.read(t, "21", msg+"\r")
	if n := c.eval(t, s, `document.querySelectorAll("b").length`); n != "0" {
		t.Errorf("message text was rendered as HTML")
	}

	// An API error is shown, not swallowed.
	c.eval(t, s, `const g = document.getElementById("message"); g.elements.target.value = "nobody";
		document.getElementById("send-button").click(); "ok"`)
	c.waitFor(t, s, `document.getElementById("error").hidden`, "false")
	if got := c.eval(t, s, `document.getElementById("error").textContent`); !strings.Contains(got, "names no agent") {
		t.Errorf("error shown: %q", got)
	}

	// Stop it, confirming the dialog.
	c.eval(t, s, fmt.Sprintf(`window.confirm = () => true;
		document.querySelector('#sessions tr[data-id="%s"] button.stop').click(); "ok"`, id))
	c.waitFor(t, s, fmt.Sprintf(`(document.querySelector('#sessions tr[data-id="%s"] td:nth-child(4)') || {}).textContent`, id), "stopped")
	if err := exec.Command("tmux", "has-session", "-t", "=mas-"+id[:8]).Run(); err == nil {
		t.Error("tmux session still runs after Stop")
	}

	var shot struct{ Data string }
	json.Unmarshal(c.call(t, s, "Page.captureScreenshot", map[string]any{"format": "png"}), &shot)
	png, _ := base64.StdEncoding.DecodeString(shot.Data)
	shotDir := os.Getenv("MAS_SCREENSHOT_DIR")
	if shotDir == "" {
		shotDir = t.TempDir()
	}
	path := filepath.Join(shotDir, "web-ui.png")
	if err := os.WriteFile(path, png, 0o644); err != nil || len(png) < 1000 {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
	t.Logf("screenshot: %s", path)
}

// waitRefused waits (bounded) until the server has refused at least n
// requests with status. (Chromium retries a 421 and asks for a favicon:
// there may be more.)
func waitRefused(t *testing.T, refused func() []int, status, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	count := func() int {
		got := 0
		for _, s := range refused() {
			if s == status {
				got++
			}
		}
		return got
	}
	for count() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the server refused %v, want %d times %d", refused(), n, status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestCrossSiteInChromium: a page of another origin posts a message the
// ways that need no CORS preflight (a no-cors fetch of text/plain, a
// text/plain form) and stops a session; a page under a DNS name rebound
// to this machine reads and stops. None of it reaches an agent or tmux.
func TestCrossSiteInChromium(t *testing.T) {
	f := newBrowserFixture(t)
	base, _, refused := f.serve(t, api.Options{})
	id := f.run(t)

	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>evil</title><iframe name="sink"></iframe>
<form id="f" method="POST" action="%[1]s/message" enctype="text/plain" target="sink">
<input name='{"target": "21", "message": "EVIL-FORM", "execute": true, "x": "' value='"}'></form>
<script>
const no = {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}};
fetch("%[1]s/message", {...no, body: JSON.stringify({target: "21", message: "EVIL-FETCH", execute: true})})
  .then(() => fetch("%[1]s/sessions/%[2]s/stop", no))
  .then(() => document.getElementById("f").submit());
</script>`, base, id)
	}))
	defer evil.Close()
	f.open(t, evil.URL+"/")
	waitRefused(t, refused, 403, 3)

	// DNS rebinding: the attacker's page was loaded from evil.test,
	// whose name now points here, so the page is same-origin with what
	// answers. Our answer's CSP would stop the page's script: bypass it,
	// as the attacker's own page has none.
	port := base[strings.LastIndex(base, ":")+1:]
	s := f.open(t, "about:blank")
	f.c.call(t, s, "Page.setBypassCSP", map[string]any{"enabled": true})
	f.c.call(t, s, "Page.navigate", map[string]any{"url": "http://evil.test:" + port + "/"})
	f.c.waitFor(t, s, `location.host`, "evil.test:"+port)
	if got := f.c.eval(t, s, `fetch("/sessions").then(r => r.status)`); got != "421" {
		t.Errorf("GET /sessions under a rebound name: %s", got)
	}
	if got := f.c.eval(t, s, `fetch("/sessions/`+id+`/stop", {method: "POST"}).then(r => r.status)`); got != "421" {
		t.Errorf("POST /sessions/{id}/stop under a rebound name: %s", got)
	}
	waitRefused(t, refused, 421, 3)
	for _, status := range refused() {
		if status != 403 && status != 421 {
			t.Errorf("refused with %d: %v", status, refused())
		}
	}

	// Nothing arrived and the session runs; a script's message still
	// gets through, after the attempts, and alone.
	if err := exec.Command("tmux", "has-session", "-t", "=mas-"+id[:8]).Run(); err != nil {
		t.Errorf("the session was stopped: %v", err)
	}
	resp, err := http.Post(base+"/message", "application/json", strings.NewReader(`{"target": "21", "message": "from a script", "execute": true}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	f.read(t, "21", "from a script\r")
}

// TestTokenLoginInChromium: with MAS_API_TOKEN set, the page opened
// without the login URL says a login is needed; opened through it, it
// lists the sessions, and the cookie is out of the page's reach.
func TestTokenLoginInChromium(t *testing.T) {
	f := newBrowserFixture(t)
	url, h, _ := f.serve(t, api.Options{Token: "s3cret"})
	id := f.run(t)
	c := f.c

	s := f.open(t, url+"/")
	c.waitFor(t, s, `document.getElementById("health").textContent`, "Login required")
	if got := c.eval(t, s, `document.getElementById("error").textContent`); !strings.Contains(got, "Login required (401)") || !strings.Contains(got, "login URL") {
		t.Errorf("error shown without a login: %q", got)
	}

	login := h.LoginURL()
	c.call(t, s, "Page.navigate", map[string]any{"url": login})
	c.waitFor(t, s, `document.getElementById("health").textContent`, "API ok")
	c.waitFor(t, s, fmt.Sprintf(`(document.querySelector('#sessions tr[data-id="%s"] td:nth-child(4)') || {}).textContent`, id), "active")
	if got := c.eval(t, s, `location.pathname + location.search + "|" + document.cookie`); got != "/|" {
		t.Errorf("after the login the page is at %q (want /, the code gone, the cookie unreadable)", got)
	}

	// The URL was for one use.
	s2 := f.open(t, login)
	c.waitFor(t, s2, `document.body.innerText.includes("login code is wrong or already used")`, "true")
}
