package app

// The tests here drive the page of mas serve in headless Chromium
// (Debian's package; scripts/test.sh installs it) against the real API
// and a private tmux server, whose agents are a stub that shows and keeps
// what it reads. They share one Chromium, started by the first of them
// and ended by TestMain, each in a browser context of its own (cookies,
// storage and tabs apart), and talk to it over --remote-debugging-pipe
// with the DevTools protocol. They leave screenshots in
// $MAS_SCREENSHOT_DIR (default: the test's temp directory).
//
// Nothing here waits a fixed time or compares a duration with the
// machine's speed: every wait is for something the page, the server or
// an agent shows, bounded by patience, a limit far above what the
// slowest machine needs, that only a broken build reaches.

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

	"mas/internal/activity"
	"mas/internal/api"
	"mas/tmux"
)

// patience bounds every wait of these tests.
const patience = 90 * time.Second

func TestMain(m *testing.M) {
	if dir := os.Getenv(fakeHostVar); dir != "" {
		os.Exit(fakeHost(dir, os.Args[1:])) // this binary is the tests' ssh
	}
	code := m.Run()
	chromium.stop()
	os.Exit(code)
}

// cdp is a DevTools protocol connection over Chromium's debugging pipe.
type cdp struct {
	mu   sync.Mutex
	w    *os.File
	rf   *os.File
	r    *bufio.Reader
	next int
}

func (c *cdp) call(t *testing.T, session, method string, params any) json.RawMessage {
	t.Helper()
	res, err := c.send(session, method, params)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// send sends one command and reads until its answer; the events and
// answers to others on the way are dropped.
func (c *cdp) send(session, method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	msg := map[string]any{"id": c.next, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	data, _ := json.Marshal(msg)
	if _, err := c.w.Write(append(data, 0)); err != nil {
		return nil, fmt.Errorf("%s: %v", method, err)
	}
	c.rf.SetReadDeadline(time.Now().Add(patience))
	for {
		raw, err := c.r.ReadBytes(0)
		if err != nil {
			return nil, fmt.Errorf("%s: reading Chromium's answer: %v", method, err)
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
			return nil, fmt.Errorf("%s: %s", method, resp.Error.Message)
		}
		return resp.Result, nil
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

// waitFor polls js until it returns want.
func (c *cdp) waitFor(t *testing.T, session, js, want string) {
	t.Helper()
	got := ""
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got, _ = c.try(t, session, js); got == want {
			return
		}
	}
	page, _ := c.try(t, session, "document.body.innerText")
	t.Fatalf("waiting for %s == %q; last %q; page: %s", js, want, got, page)
}

// browser is a headless Chromium and the DevTools connection to it.
type browser struct {
	cmd *exec.Cmd
	dir string // its profile and home
	c   *cdp
}

// chromium is the browser the tests share.
var chromium sharedBrowser

type sharedBrowser struct {
	once sync.Once
	b    *browser
	err  error
}

// get starts Chromium the first time it is asked for.
func (s *sharedBrowser) get(path string) (*browser, error) {
	s.once.Do(func() { s.b, s.err = startBrowser(path) })
	return s.b, s.err
}

// stop closes the browser, if one was started, and removes its profile.
func (s *sharedBrowser) stop() {
	if s.b == nil {
		return
	}
	b := s.b
	done := make(chan error, 1)
	go func() { done <- b.cmd.Wait() }()
	b.c.send("", "Browser.close", map[string]any{})
	select {
	case <-done:
	case <-time.After(patience):
		b.cmd.Process.Kill()
		<-done
	}
	os.RemoveAll(b.dir)
}

// startBrowser starts Chromium with a profile of its own, talking
// DevTools on fd 3 (commands) and fd 4 (answers). The names evil.test
// resolves to this machine, as a rebound DNS name would. No proxy of the
// environment stands between it and the test's loopback servers.
func startBrowser(path string) (*browser, error) {
	dir, err := os.MkdirTemp("", "mas-chromium")
	if err != nil {
		return nil, err
	}
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--no-proxy-server", "--host-resolver-rules=MAP evil.test 127.0.0.1",
		"--remote-debugging-pipe", "--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1280,1000", "about:blank")
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.ExtraFiles = []*os.File{cmdR, resW}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmdR.Close()
	resW.Close()
	b := &browser{cmd: cmd, dir: dir, c: &cdp{w: cmdW, rf: resR, r: bufio.NewReader(resR)}}
	if _, err := b.c.send("", "Browser.getVersion", map[string]any{}); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("chromium does not answer: %v", err)
	}
	return b, nil
}

// browserFixture is a mas root with a stub agent that shows what it reads
// on its screen and writes it to out/<session id>-<agent>.in, on a
// private tmux server, and a browser context of the shared Chromium to
// open pages in.
type browserFixture struct {
	dir, out string
	a        *App
	c        *cdp
	context  string      // the test's browser context
	requests *requestLog // of the API served last
}

// requestLog records the requests a server answers and how many it
// answered at once at most, and holds GET …/output on demand.
type requestLog struct {
	mu        sync.Mutex
	paths     []string // "GET /sessions", in order
	active    int
	maxActive int
	gate      chan struct{} // while not nil, GET …/output waits for it to close
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api := r.URL.Path != "/" && !strings.HasPrefix(r.URL.Path, "/ui/") && r.URL.Path != "/favicon.ico"
		l.mu.Lock()
		if api {
			l.paths = append(l.paths, r.Method+" "+r.URL.Path)
			l.active++
			l.maxActive = max(l.maxActive, l.active)
		}
		gate := l.gate
		l.mu.Unlock()
		if api && gate != nil && strings.HasSuffix(r.URL.Path, "/output") {
			<-gate
		}
		h.ServeHTTP(w, r)
		if api {
			l.mu.Lock()
			l.active--
			l.mu.Unlock()
		}
	})
}

// hold makes GET …/output wait until release is called.
func (l *requestLog) hold() (release func()) {
	gate := make(chan struct{})
	l.mu.Lock()
	l.gate = gate
	l.mu.Unlock()
	return sync.OnceFunc(func() {
		l.mu.Lock()
		l.gate = nil
		l.mu.Unlock()
		close(gate)
	})
}

// seen is the API requests so far and the most answered at once.
func (l *requestLog) seen() (paths []string, most int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.paths), l.maxActive
}

func newBrowserFixture(t *testing.T) *browserFixture {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed")
		}
		t.Skip("chromium is not installed")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	b, err := chromium.get(path)
	if err != nil {
		t.Fatal(err)
	}
	var bc struct{ BrowserContextID string }
	json.Unmarshal(b.c.call(t, "", "Target.createBrowserContext", map[string]any{}), &bc)
	t.Cleanup(func() {
		b.c.send("", "Target.disposeBrowserContext", map[string]any{"browserContextId": bc.BrowserContextID})
	})

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
	os.WriteFile(stub, []byte(`#!/bin/sh
agent=$(basename "$(pwd -P)")
echo "agent $agent of ${MAS_SESSION_ID%%-*} ready"
stty raw -echo
exec tee "`+out+`/$MAS_SESSION_ID-$agent.in"
`), 0o755)
	// A tmux server of the test's own, never the user's.
	t.Setenv("HOME", home)
	t.Setenv("TMUX_TMPDIR", dir)
	t.Setenv("TMUX", "")
	t.Cleanup(func() { exec.Command("tmux", "kill-server").Run() })

	vars := map[string]string{"MAS_ROOT": root, "MAS_AGENT_COMMAND": stub, "SHELL": "/bin/sh", "MAS_HTTP": "off"}
	a := New(Env{Getenv: func(k string) string { return vars[k] }, Cwd: dir}, nil)
	return &browserFixture{dir: dir, out: out, a: a, c: b.c, context: bc.BrowserContextID}
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
	f.requests = &requestLog{}
	srv.Config.Handler = f.requests.wrap(h)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, h, func() []int {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(refused)
	}
}

// open opens url in a new tab of the test's browser context and returns
// its DevTools session.
func (f *browserFixture) open(t *testing.T, url string) string {
	t.Helper()
	var target struct{ TargetID string }
	json.Unmarshal(f.c.call(t, "", "Target.createTarget", map[string]any{"url": url, "browserContextId": f.context}), &target)
	var attached struct{ SessionID string }
	json.Unmarshal(f.c.call(t, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}), &attached)
	return attached.SessionID
}

// openWith is open with scripts run in the page before its own.
func (f *browserFixture) openWith(t *testing.T, url string, scripts ...string) string {
	t.Helper()
	s := f.open(t, "about:blank")
	f.c.call(t, s, "Page.enable", map[string]any{})
	for _, js := range scripts {
		f.c.call(t, s, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": js})
	}
	f.c.call(t, s, "Page.navigate", map[string]any{"url": url})
	return s
}

// run starts an isolated session through the API's backend, with no
// prompts, and waits until agent 21 reads its pane.
func (f *browserFixture) run(t *testing.T) string {
	t.Helper()
	run, err := Backend{f.a}.Run(context.Background(), api.RunRequest{Agents: json.RawMessage(`{}`), SessionMode: "isolated"})
	if err != nil {
		t.Fatal(err)
	}
	f.read(t, run.SessionID, "21", "")
	return run.SessionID
}

// sessionDir is the directory of session id.
func (f *browserFixture) sessionDir(t *testing.T, id string) string {
	t.Helper()
	s, err := Backend{f.a}.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s.WorkingDir
}

// read waits until agent of session id has read exactly want.
func (f *browserFixture) read(t *testing.T, id, agent, want string) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		got, err := os.ReadFile(filepath.Join(f.out, id+"-"+agent+".in"))
		if err == nil && string(got) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("agent %s read %q, want %q", agent, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// rowStatus is JavaScript for the status the list shows for session id.
func rowStatus(id string) string {
	return fmt.Sprintf(`(document.querySelector('#sessions tr[data-id="%s"] td.status') || {}).textContent`, id)
}

// click is JavaScript that clicks what selector finds.
func click(selector string) string {
	return fmt.Sprintf(`document.querySelector(%q).click(); "ok"`, selector)
}

// rowButton is the selector of a button (watch, stop, resume, remove) in
// session id's row.
func rowButton(id, button string) string {
	return fmt.Sprintf(`#sessions tr[data-id="%s"] button.%s`, id, button)
}

// tileText is JavaScript for the screen text in agent's tile.
func tileText(agent string) string {
	return fmt.Sprintf(`(document.querySelector('#grid [data-agent="%s"] .screen') || {}).textContent`, agent)
}

// send fills the message box and sends it.
func send(t *testing.T, c *cdp, s, target, text string) {
	t.Helper()
	js, _ := json.Marshal(text)
	c.eval(t, s, `{ const f = document.getElementById("message");
		f.elements.target.value = "`+target+`"; f.elements.text.value = `+string(js)+`; f.elements.execute.checked = true;
		document.getElementById("send-button").click(); } "ok"`)
}

// screenshot saves the page, seen width x height (the whole page when
// full), as name in $MAS_SCREENSHOT_DIR.
func (f *browserFixture) screenshot(t *testing.T, s, name string, width, height int, full bool) {
	t.Helper()
	f.c.call(t, s, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false})
	f.c.eval(t, s, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r("ok"))))`)
	var shot struct{ Data string }
	json.Unmarshal(f.c.call(t, s, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": full}), &shot)
	png, _ := base64.StdEncoding.DecodeString(shot.Data)
	dir := os.Getenv("MAS_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil || len(png) < 1000 {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
	t.Logf("screenshot: %s", path)
}

// TestWebPageInChromium: create a session from the form, watch it, send a
// message the stub agent reads, see an API error, stop it.
func TestWebPageInChromium(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	s := f.open(t, url+"/")
	c.waitFor(t, s, `document.getElementById("health").textContent`, "API ok")
	c.waitFor(t, s, `document.getElementById("new-session").open`, "true") // no session yet

	// Create an isolated session from the form: the page watches it.
	c.eval(t, s, `document.querySelector("#create select[name=mode]").value = "isolated";
		document.querySelector("textarea[name=prompt-00]").value = "plan it";
		document.getElementById("create-button").click(); "ok"`)
	c.waitFor(t, s, `document.getElementById("created").textContent.startsWith("Created ")`, "true")
	id := c.eval(t, s, `document.getElementById("created").textContent.split(" ")[1]`)
	c.waitFor(t, s, rowStatus(id), "active")
	if got := c.eval(t, s, `document.getElementById("created").textContent`); !strings.Contains(got, "mas session attach "+id[:8]) {
		t.Errorf("no attach hint: %q", got)
	}
	c.waitFor(t, s, `location.search`, "?session="+id)
	c.waitFor(t, s, `(document.querySelector('#grid [data-agent="21"] .state') || {}).textContent`, "running")

	// The meta manager's prompt arrived once, submitted.
	f.read(t, id, "00", "plan it\r")

	// Send a message; HTML in it must stay text, on the page and in the
	// agent's tile.
	msg := `<b>hello</b> $(touch pwned)`
	send(t, c, s, "21", msg)
	c.waitFor(t, s, `document.getElementById("sent").textContent`, "Message sent to 1/1 agents of mas-"+id[:8])
	f.read(t, id, "21", msg+"\r")
	c.waitFor(t, s, tileText("21")+`.includes(`+"`"+msg+"`"+`)`, "true")
	if n := c.eval(t, s, `document.querySelectorAll("b").length`); n != "0" {
		t.Errorf("message text was rendered as HTML")
	}

	// An API error is shown, not swallowed.
	send(t, c, s, "nobody", "x")
	c.waitFor(t, s, `document.getElementById("error").hidden`, "false")
	if got := c.eval(t, s, `document.getElementById("error").textContent`); !strings.Contains(got, "names no agent") {
		t.Errorf("error shown: %q", got)
	}

	// Stop it, confirming the dialog: its screens go, the page says why.
	c.eval(t, s, `window.confirm = () => true; "ok"`)
	c.eval(t, s, click(rowButton(id, "stop")))
	c.waitFor(t, s, rowStatus(id), "stopped")
	if err := exec.Command("tmux", "has-session", "-t", "=mas-"+id[:8]).Run(); err == nil {
		t.Error("tmux session still runs after Stop")
	}
	c.waitFor(t, s, `document.querySelectorAll("#grid .tile").length + " " + document.getElementById("message").hidden`, "0 true")
	c.waitFor(t, s, `document.getElementById("view-note").textContent`, "mas-"+id[:8]+" is stopped: Resume brings it back.")
}

// TestWebPageWatchesASession: /?session= opens a session among two, by its
// id or a prefix of it; a message sent from the page goes to the session
// whose screens show, and appears in its agent's tile; watching another
// session changes the URL. Leaves web-ui.png (1280x800) and
// web-ui-narrow.png (420x900).
func TestWebPageWatchesASession(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	first, second := f.run(t), f.run(t)

	s := f.open(t, url+"/?session="+second[:8])
	c.waitFor(t, s, `location.search`, "?session="+second)
	c.waitFor(t, s, `document.getElementById("view-title").textContent`, "Agents of mas-"+second[:8])
	c.waitFor(t, s, `[...document.querySelectorAll("#grid .tile")].map((e) => e.dataset.agent).join(" ")`,
		"00 10 11 12 13 20 21 22 23 30 31 32 33")
	c.waitFor(t, s, tileText("21"), "agent 21 of "+second[:8]+" ready")
	if got := c.eval(t, s, `document.querySelector("#sessions tr.selected").dataset.id`); got != second {
		t.Errorf("the list marks %s as watched, want %s", got, second)
	}

	send(t, c, s, "21", "hello from the page")
	f.read(t, second, "21", "hello from the page\r")
	f.read(t, first, "21", "")
	c.waitFor(t, s, tileText("21")+`.includes("hello from the page")`, "true")
	c.eval(t, s, `document.getElementById("message").elements.text.value = ""; "ok"`)
	f.screenshot(t, s, "web-ui.png", 1280, 800, false)
	f.screenshot(t, s, "web-ui-narrow.png", 420, 900, false)
	f.c.call(t, s, "Emulation.clearDeviceMetricsOverride", map[string]any{})

	// Watch the other one: the URL, the tiles and the message follow.
	c.eval(t, s, click(rowButton(first, "watch")))
	c.waitFor(t, s, `location.search`, "?session="+first)
	c.waitFor(t, s, tileText("21"), "agent 21 of "+first[:8]+" ready")
	send(t, c, s, "21", "to the first")
	f.read(t, first, "21", "to the first\r")
	f.read(t, second, "21", "hello from the page\r")

	// A full id opens it as well; one that names nothing says so.
	s2 := f.open(t, url+"/?session="+second)
	c.waitFor(t, s2, `document.getElementById("view-title").textContent`, "Agents of mas-"+second[:8])
	s3 := f.open(t, url+"/?session=0badc0de")
	c.waitFor(t, s3, `document.getElementById("error").textContent`, "?session=0badc0de: no such session under this root")
}

// TestWebPageResumeAndRemove: a stopped session is resumed from the page
// with its 13 agents, and removed (after a confirmation that names it,
// which can say no) from the list and the disk; a running one offers no
// Remove.
func TestWebPageResumeAndRemove(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	id := f.run(t)
	name := "mas-" + id[:8]
	dir := f.sessionDir(t, id)

	s := f.open(t, url+"/?session="+id)
	c.waitFor(t, s, `document.querySelectorAll("#grid .tile").length`, "13")
	if got := c.eval(t, s, `document.querySelectorAll("#sessions button.remove, #sessions button.resume").length`); got != "0" {
		t.Errorf("a running session offers %s Remove or Resume buttons", got)
	}
	c.eval(t, s, `window.confirm = () => true; "ok"`)
	c.eval(t, s, click(rowButton(id, "stop")))
	c.waitFor(t, s, rowStatus(id), "stopped")

	c.eval(t, s, click(rowButton(id, "resume")))
	c.waitFor(t, s, rowStatus(id), "active")
	c.waitFor(t, s, `[...document.querySelectorAll("#grid .tile.state-running")].length`, "13")
	out, err := exec.Command("tmux", "list-panes", "-s", "-t", tmux.Session(name), "-F", "#{pane_id}").Output()
	if n := strings.Count(string(out), "\n"); err != nil || n != 13 {
		t.Errorf("after Resume tmux has %d panes (%v), want 13", n, err)
	}
	f.read(t, id, "21", "") // the agent reads again (tee starts the file anew)

	c.eval(t, s, click(rowButton(id, "stop")))
	c.waitFor(t, s, rowStatus(id), "stopped")

	// Remove, answering no: nothing happens.
	c.eval(t, s, `window.asked = []; window.confirm = (q) => { window.asked.push(q); return false; }; "ok"`)
	c.eval(t, s, click(rowButton(id, "remove")))
	c.waitFor(t, s, `window.asked.length`, "1")
	q := c.eval(t, s, `window.asked[0]`)
	for _, want := range []string{name, id, dir, "cannot be undone"} {
		if !strings.Contains(q, want) {
			t.Errorf("the confirmation %q does not say %q", q, want)
		}
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("Remove answered no: %v", err)
	}

	// Yes: gone from the list, the disk and the URL.
	c.eval(t, s, `window.confirm = () => true; "ok"`)
	c.eval(t, s, click(rowButton(id, "remove")))
	c.waitFor(t, s, `document.querySelectorAll('#sessions tr[data-id="`+id+`"]').length`, "0")
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the session's directory after Remove: %v", err)
	}
	c.waitFor(t, s, `location.search`, "")
	if got := c.eval(t, s, `document.getElementById("error").hidden`); got != "true" {
		t.Errorf("error shown: %s", c.eval(t, s, `document.getElementById("error").textContent`))
	}
}

// TestWebPageEndsAnOrphan: a tmux session of the root whose directory is
// gone is listed as an orphan, with Stop and nothing to watch; Stop ends
// it.
func TestWebPageEndsAnOrphan(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	id := f.run(t)
	name := "mas-" + id[:8]
	if err := os.RemoveAll(f.sessionDir(t, id)); err != nil {
		t.Fatal(err)
	}

	s := f.open(t, url+"/")
	c.waitFor(t, s, rowStatus(name), "orphan")
	if got := c.eval(t, s, `[...document.querySelectorAll('#sessions tr[data-id="`+name+`"] button')].map((b) => b.className).join(" ")`); got != "stop" {
		t.Errorf("an orphan's buttons: %q, want stop alone", got)
	}
	c.eval(t, s, `window.asked = []; window.confirm = (q) => { window.asked.push(q); return true; }; "ok"`)
	c.eval(t, s, click(rowButton(name, "stop")))
	c.waitFor(t, s, `document.querySelectorAll('#sessions tr[data-id="`+name+`"]').length`, "0")
	if q := c.eval(t, s, `window.asked[0]`); !strings.Contains(q, "orphaned tmux session "+name) {
		t.Errorf("the confirmation: %q", q)
	}
	if err := exec.Command("tmux", "has-session", "-t", tmux.Session(name)).Run(); err == nil {
		t.Error("the orphan still runs after Stop")
	}
}

// TestWebPageShowsTheLegacySession (issue 30): the root's legacy session
// is listed, mode legacy, and opens by its tmux name (?session=mas-tmux
// said "no such session"); its tiles show its agents' screens and the
// message box reaches them; it offers Watch and Stop, never Resume or
// Remove, which only an isolated session has. Stop ends it; started
// again and killed behind mas's back, it is listed stopped, with how to
// start it again.
func TestWebPageShowsTheLegacySession(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	const name = "mas-tmux"
	legacyRun := func() {
		t.Helper()
		if _, err := (Backend{f.a}).Run(context.Background(), api.RunRequest{Agents: json.RawMessage(`{}`), SessionMode: "legacy"}); err != nil {
			t.Fatal(err)
		}
	}
	buttons := `[...document.querySelectorAll('#sessions tr[data-id="` + name + `"] button')].map((b) => b.className).join(" ")`
	legacyRun()

	s := f.open(t, url+"/?session="+name)
	c.waitFor(t, s, rowStatus(name), "active")
	c.waitFor(t, s, `document.querySelector('#sessions tr[data-id="`+name+`"] td.mode').textContent`, "legacy")
	c.waitFor(t, s, `document.getElementById("view-title").textContent`, "Agents of "+name)
	c.waitFor(t, s, tileText("21")+`.includes("agent 21 of")`, "true") // its MAS_SESSION_ID is empty
	if got := c.eval(t, s, buttons); got != "watch stop" {
		t.Errorf("a running legacy session's buttons: %q, want watch and stop", got)
	}
	send(t, c, s, "21", "to the legacy team")
	f.read(t, "", "21", "to the legacy team\r")
	c.waitFor(t, s, tileText("21")+`.includes("to the legacy team")`, "true")

	c.eval(t, s, `window.confirm = () => true; "ok"`)
	c.eval(t, s, click(rowButton(name, "stop")))
	c.waitFor(t, s, `document.querySelectorAll('#sessions tr[data-id="`+name+`"]').length`, "0") // mas stop removes .mas_session
	if err := exec.Command("tmux", "has-session", "-t", tmux.Session(name)).Run(); err == nil {
		t.Error("the legacy session still runs after Stop")
	}

	legacyRun()
	c.waitFor(t, s, rowStatus(name), "active")
	c.eval(t, s, click(rowButton(name, "watch")))
	c.waitFor(t, s, `document.querySelectorAll("#grid .tile").length`, "13")
	if err := exec.Command("tmux", "kill-session", "-t", tmux.Session(name)).Run(); err != nil {
		t.Fatal(err)
	}
	c.waitFor(t, s, rowStatus(name), "stopped")
	if got := c.eval(t, s, buttons); got != "watch" {
		t.Errorf("a stopped legacy session's buttons: %q, want watch alone", got)
	}
	c.waitFor(t, s, `document.getElementById("view-note").textContent`,
		name+" is stopped: start it again with mas start, or New session in legacy mode.")
}

// TestWebPageHidesStoppedSessions: the checkbox hides stopped sessions
// but the one watched, and the page remembers it.
func TestWebPageHidesStoppedSessions(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	running, stopped, watched := f.run(t), f.run(t), f.run(t)
	for _, id := range []string{stopped, watched} {
		if _, err := (Backend{f.a}).Stop(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	rows := `[...document.querySelectorAll("#sessions tbody tr")].map((e) => e.dataset.id).sort().join(" ")`
	all := []string{running, stopped, watched}
	slices.Sort(all)

	s := f.open(t, url+"/?session="+watched)
	c.waitFor(t, s, rows, strings.Join(all, " "))
	c.eval(t, s, click("#hide-stopped"))
	shown := []string{running, watched}
	slices.Sort(shown)
	c.waitFor(t, s, rows, strings.Join(shown, " "))
	c.waitFor(t, s, `document.getElementById("hidden-count").textContent`, "(1 hidden)")

	// Remembered: a new page hides them too, and shows them when told.
	s2 := f.open(t, url+"/")
	c.waitFor(t, s2, `document.getElementById("hide-stopped").checked`, "true")
	c.waitFor(t, s2, rows, running)
	c.eval(t, s2, click("#hide-stopped"))
	c.waitFor(t, s2, rows, strings.Join(all, " "))
}

// pageClock, run in a page before its own scripts, replaces its
// setTimeout with timers that fire only when the test calls fireTimers(),
// and counts its fetches (fetches.paths without the query, .active, .most
// at once).
const pageClock = `(() => {
	const timers = new Map();
	let next = 1;
	window.setTimeout = (fn, ms, ...args) => { timers.set(next, () => fn(...args)); return next++; };
	window.clearTimeout = (id) => { timers.delete(id); };
	window.pendingTimers = () => timers.size;
	window.fireTimers = () => { const due = [...timers.values()]; timers.clear(); due.forEach((f) => f()); return due.length; };
	const realFetch = window.fetch.bind(window);
	const f = window.fetches = { active: 0, most: 0, paths: [] };
	window.fetch = async (path, opts) => {
		f.paths.push(((opts && opts.method) || "GET") + " " + String(path).split("?")[0]);
		f.most = Math.max(f.most, ++f.active);
		try { return await realFetch(path, opts); } finally { f.active--; }
	};
})();`

// setVisibility is JavaScript that makes the page visible or hidden and
// tells it so.
func setVisibility(state string) string {
	return `Object.defineProperty(document, "visibilityState", {value: "` + state + `", configurable: true});
		document.dispatchEvent(new Event("visibilitychange"));`
}

// TestWebPageRefreshesGently: one refresh at a time even when the
// agents' screens are slow to come, each a list and one output request,
// the next planned when one ends; while the tab is hidden, none but
// glances (one light request each, the watched session's agents without
// their screens); one at once when it shows again. The page's clock is
// the test's: its timers
// fire when the test says.
func TestWebPageRefreshesGently(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	id := f.run(t)
	list, output := "GET /sessions", "GET /sessions/"+id+"/output"
	idle := `!inFlight && fetches.active === 0`
	paths := func(n int) string {
		p := make([]string, n)
		for i := range p {
			p[i] = list
			if i%2 == 1 {
				p[i] = output
			}
		}
		return strings.Join(p, ",")
	}

	release := f.requests.hold()
	defer release()
	s := f.openWith(t, url+"/?session="+id, pageClock)

	// The first refresh waits for the screens: neither its timers nor the
	// tab showing start another meanwhile.
	c.waitFor(t, s, `fetches.paths.join(",") + " " + fetches.active`, paths(2)+" 1")
	if got := c.eval(t, s, `pendingTimers()`); got != "0" {
		t.Errorf("%s refreshes planned while one waits, want none", got)
	}
	c.eval(t, s, `fireTimers(); `+setVisibility("visible")+` fireTimers(); "ok"`)
	if got := c.eval(t, s, `fetches.paths.length + " at once " + fetches.most`); got != "2 at once 1" {
		t.Errorf("while a refresh waits: %s requests, want 2 at once 1", got)
	}

	// Once it ends, the refresh asked for meanwhile runs, then one is
	// planned, and it runs when its timer fires.
	release()
	c.waitFor(t, s, idle+` && fetches.paths.join(",")`, paths(4))
	c.waitFor(t, s, `pendingTimers()`, "1")
	c.eval(t, s, `fireTimers(); "ok"`)
	c.waitFor(t, s, idle+` && fetches.paths.join(",")`, paths(6))

	// Hidden: the planned refresh gives way to a glance, for the title
	// and the notifications, and the next glance is planned when it ends.
	glance := "GET /sessions/" + id
	want := paths(6) + "," + glance
	c.waitFor(t, s, `pendingTimers()`, "1")
	c.eval(t, s, setVisibility("hidden")+` fireTimers(); "ok"`)
	c.waitFor(t, s, idle+` && fetches.paths.join(",")`, want)
	c.waitFor(t, s, `pendingTimers()`, "1")

	// Hidden while a refresh waits: it ends, and what comes next is a
	// glance.
	c.eval(t, s, setVisibility("visible")+` "ok"`)
	want += "," + paths(2)
	c.waitFor(t, s, idle+` && fetches.paths.join(",")`, want)
	release = f.requests.hold()
	c.eval(t, s, `fireTimers(); "ok"`)
	c.waitFor(t, s, `fetches.paths.length + " " + fetches.active`, "11 1")
	if got := c.eval(t, s, setVisibility("hidden")+` pendingTimers()`); got != "0" {
		t.Errorf("%s refreshes planned while one waits, want none", got)
	}
	release()
	want += "," + paths(2)
	c.waitFor(t, s, idle+` && fetches.paths.join(",") + " " + pendingTimers()`, want+" 1")
	c.eval(t, s, `fireTimers(); "ok"`)
	want += "," + glance
	c.waitFor(t, s, idle+` && fetches.paths.join(",")`, want)

	// Shown again: a refresh starts at once.
	if got := c.eval(t, s, setVisibility("visible")+` fetches.paths.length`); got != "13" {
		t.Errorf("requests once the tab shows again: %s, want 13", got)
	}
	want += "," + paths(2)
	c.waitFor(t, s, idle+` && fetches.paths.join(",")`, want)
	if got, most := f.requests.seen(); strings.Join(got, ",") != want || most != 1 {
		t.Errorf("the server answered %q, %d at once at most; want %s, one at a time", got, most, want)
	}
}

// waitRefused waits until the server has refused at least n requests
// with status. (Chromium retries a 421 and asks for a favicon: there may
// be more.)
func waitRefused(t *testing.T, refused func() []int, status, n int) {
	t.Helper()
	for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
		got := 0
		for _, s := range refused() {
			if s == status {
				got++
			}
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server refused %v, want %d times %d", refused(), n, status)
		}
	}
}

// TestCrossSiteInChromium: a page of another origin posts a message the
// ways that need no CORS preflight (a no-cors fetch of text/plain, a
// text/plain form) and stops a session; a page under a DNS name rebound
// to this machine reads and stops. Each request reaches the server, which
// refuses it: none of it reaches an agent or tmux.
func TestCrossSiteInChromium(t *testing.T) {
	f := newBrowserFixture(t)
	base, _, refused := f.serve(t, api.Options{})
	id := f.run(t)

	// The page notes what became of each attempt in window.steps.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>evil</title><iframe name="sink"></iframe>
<form id="f" method="POST" action="%[1]s/message" enctype="text/plain" target="sink">
<input name='{"target": "21", "message": "EVIL-FORM", "execute": true, "x": "' value='"}'></form>
<script>
window.steps = [];
const no = {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}};
const attempt = (name, p) => p.then((r) => steps.push(name + ": " + r.type), (e) => steps.push(name + ": " + e));
attempt("message", fetch("%[1]s/message", {...no, body: JSON.stringify({target: "21", message: "EVIL-FETCH", execute: true})}))
  .then(() => attempt("stop", fetch("%[1]s/sessions/%[2]s/stop", no)))
  .then(() => { document.getElementById("f").submit(); steps.push("form: submitted"); });
</script>`, base, id)
	}))
	defer evil.Close()
	// The server's checks must hold whatever the browser allows: the
	// page gets the local network permissions this Chromium knows, as a
	// user may grant them, so that its rules keep no request back.
	for _, p := range []string{"localNetworkAccess", "localNetwork", "loopbackNetwork"} {
		_, err := f.c.send("", "Browser.grantPermissions", map[string]any{"permissions": []string{p}, "origin": evil.URL, "browserContextId": f.context})
		if err != nil && !strings.Contains(err.Error(), "Unknown permission type") {
			t.Fatal(err)
		}
	}
	s := f.open(t, evil.URL+"/")
	// An opaque answer is the server's: the browser sent the request.
	// Anything else means the browser kept it, and this test no longer
	// tries the server's checks.
	f.c.waitFor(t, s, `window.steps && steps.join(", ")`, "message: opaque, stop: opaque, form: submitted")
	waitRefused(t, refused, 403, 3)

	// DNS rebinding: the attacker's page was loaded from evil.test,
	// whose name now points here, so the page is same-origin with what
	// answers. Our answer's CSP would stop the page's script: bypass it,
	// as the attacker's own page has none.
	port := base[strings.LastIndex(base, ":")+1:]
	s = f.open(t, "about:blank")
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
	f.read(t, id, "21", "from a script\r")
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
	c.waitFor(t, s, rowStatus(id), "active")
	if got := c.eval(t, s, `location.pathname + location.search + "|" + document.cookie`); got != "/|" {
		t.Errorf("after the login the page is at %q (want /, the code gone, the cookie unreadable)", got)
	}

	// The URL was for one use.
	s2 := f.open(t, login)
	c.waitFor(t, s2, `document.body.innerText.includes("login code is wrong or already used")`, "true")
}

// TestWebPageStopsAKilledCreation (issue 24): a session whose create was
// killed once tmux built the team (its files say creating, its marker is
// held by nobody, its agents run) is listed active, with Stop, which ends
// its agents.
func TestWebPageStopsAKilledCreation(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	id := f.run(t)
	name := "mas-" + id[:8]
	dir := f.sessionDir(t, id)
	for _, file := range []string{".session", "metadata.json"} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(bytes.Replace(data, []byte("STATUS=active"), []byte("STATUS=creating"), 1),
			[]byte(`"status": "active"`), []byte(`"status": "creating"`), 1)
		os.WriteFile(filepath.Join(dir, file), data, 0o600)
	}
	os.WriteFile(filepath.Join(dir, ".creating"), []byte("create: agents\n"), 0o600)

	s := f.open(t, url+"/")
	c.waitFor(t, s, rowStatus(id), "active")
	c.eval(t, s, `window.confirm = () => true; "ok"`)
	c.eval(t, s, click(rowButton(id, "stop")))
	c.waitFor(t, s, rowStatus(id), "stopped")
	if err := exec.Command("tmux", "has-session", "-t", tmux.Session(name)).Run(); err == nil {
		t.Error("its agents still run after Stop")
	}
}

// notificationRecorder, run in a page before its own scripts, records the
// notifications the page raises in window.notes ("title | body") and its
// requests for the permission in window.permissionAsked; the browser's
// own permission answers.
const notificationRecorder = `(() => {
	const Real = window.Notification;
	window.notes = [];
	window.permissionAsked = 0;
	window.Notification = class {
		constructor(title, opts) { notes.push(title + " | " + ((opts && opts.body) || "")); }
		close() {}
		static get permission() { return Real.permission; }
		static requestPermission() { permissionAsked++; return Real.requestPermission(); }
	};
})();`

// TestWebPageShowsWhoNeedsYou (issue 25): each tile shows what its agent
// does; those that wait for a person stand out and come first, those
// that ask before those that wait; the title counts them; once the user
// allowed notifications (asked on the click of "Notify me"; none before), one is
// raised per agent that goes from working to waiting or asking, never
// for what the page finds at its load, also while the tab is hidden; a
// message to an agent that asks is sent only once the user says so.
func TestWebPageShowsWhoNeedsYou(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	id := f.run(t)
	name := "mas-" + id[:8]
	// The stub agent reports nothing: the session's activity directory
	// is made as for agents that report their events, and the events are
	// written as their hooks write them.
	dir := filepath.Join(f.sessionDir(t, id), "activity")
	at := time.Now().Add(-time.Hour)
	if l, err := (activity.Wiring{Events: true}).Start(dir, at); err != nil || l.Started() != nil {
		t.Fatal(err)
	}
	event := func(agent string, e activity.Event) {
		at = at.Add(time.Minute)
		hookEvent(t, dir, agent, e, at)
	}
	event("21", activity.Event{Name: activity.PermissionRequest, ToolName: "Bash"})
	event("22", activity.Event{Name: activity.UserPromptSubmit})
	event("23", activity.Event{Name: activity.UserPromptSubmit})

	s := f.openWith(t, url+"/?session="+id, pageClock, notificationRecorder)
	order := `[...document.querySelectorAll("#grid .tile")].map((e) => e.dataset.agent).join(" ")`
	tile := func(agent, part string) string {
		return fmt.Sprintf(`(document.querySelector('#grid [data-agent="%s"] %s') || {}).textContent`, agent, part)
	}
	c.waitFor(t, s, order, "21 00 10 11 12 13 20 22 23 30 31 32 33")
	if got := c.eval(t, s, `document.querySelector('#grid [data-agent="21"]').className`); got != "tile state-running activity-asking needs-you" {
		t.Errorf("the tile of the agent that asks: class %q", got)
	}
	for _, tt := range []struct{ agent, part, want string }{
		{"21", ".activity", "asking"},
		{"21", ".ask", "permission to use Bash"},
		{"22", ".activity", "working"},
		{"00", ".activity", "starting"},
		{"00", ".state", "running"},
	} {
		if got := c.eval(t, s, tile(tt.agent, tt.part)); got != tt.want {
			t.Errorf("agent %s's %s: %q, want %q", tt.agent, tt.part, got, tt.want)
		}
	}
	if got := c.eval(t, s, `getComputedStyle(document.querySelector('#grid [data-agent="21"]')).boxShadow`); got == "none" {
		t.Error("the tile of the agent that asks does not stand out")
	}
	c.waitFor(t, s, `document.title`, "(1) mas — "+name)

	// refreshed fires the page's planned refresh and waits for its end.
	idle := `!inFlight && fetches.active === 0 && pendingTimers() === 1`
	refreshed := func() {
		t.Helper()
		c.waitFor(t, s, idle, "true")
		n := c.eval(t, s, `fireTimers(); fetches.paths.length`)
		c.waitFor(t, s, idle+` && fetches.paths.length >= `+n, "true")
	}
	// Not allowed yet: 30's turn ends unannounced.
	event("30", activity.Event{Name: activity.UserPromptSubmit})
	refreshed()
	event("30", activity.Event{Name: activity.Stop})
	refreshed()
	c.waitFor(t, s, `document.title`, "(2) mas — "+name)

	// "Notify me" asks for the permission; the user grants it.
	c.waitFor(t, s, `document.getElementById("notify").hidden`, "false")
	c.call(t, "", "Browser.grantPermissions", map[string]any{"permissions": []string{"notifications"}, "origin": url, "browserContextId": f.context})
	c.eval(t, s, click("#notify"))
	c.waitFor(t, s, `permissionAsked + " " + document.getElementById("notify").hidden + " " + document.getElementById("notify-state").textContent`,
		"1 true Notifications on")
	refreshed()
	if got := c.eval(t, s, `notes.length`); got != "0" {
		t.Errorf("notifications for what the page found at its load, or before it was allowed: %s", c.eval(t, s, `notes.join("; ")`))
	}

	// 22's turn ends, 23 asks: one notification each, once.
	event("22", activity.Event{Name: activity.Stop})
	refreshed()
	event("23", activity.Event{Name: activity.PermissionRequest, ToolName: "Edit"})
	refreshed()
	refreshed()
	notes := `notes.join("\n")`
	c.waitFor(t, s, notes, "22 Backend Developer is done ("+name+") | It waits for its next prompt.\n"+
		"23 DevOps asks ("+name+") | permission to use Edit")
	c.waitFor(t, s, order, "21 23 22 30 00 10 11 12 13 20 31 32 33")
	c.waitFor(t, s, `document.title`, "(4) mas — "+name)
	f.screenshot(t, s, "web-ui-needs-you.png", 1280, 800, false)
	f.c.call(t, s, "Emulation.clearDeviceMetricsOverride", map[string]any{})

	// Hidden: the glances see 22's next turn end.
	c.eval(t, s, setVisibility("hidden")+` "ok"`)
	event("22", activity.Event{Name: activity.UserPromptSubmit})
	refreshed()
	c.waitFor(t, s, `document.title`, "(3) mas — "+name)
	event("22", activity.Event{Name: activity.Stop})
	refreshed()
	c.waitFor(t, s, `notes.length + " " + notes[2]`, "3 22 Backend Developer is done ("+name+") | It waits for its next prompt.")
	c.waitFor(t, s, `document.title`, "(4) mas — "+name)
	if got, _ := f.requests.seen(); !strings.HasSuffix(strings.Join(got, ","), ",GET /sessions/"+id+",GET /sessions/"+id) {
		t.Errorf("hidden, the page asked %q; want glances at the session", got[max(0, len(got)-4):])
	}
	c.eval(t, s, setVisibility("visible")+` "ok"`)

	// A message to 21, which asks: the page says so and sends nothing
	// until the user says to.
	c.eval(t, s, `window.asked = []; window.confirm = (q) => { asked.push(q); return false; }; "ok"`)
	send(t, c, s, "21", "y")
	c.waitFor(t, s, `asked.length + " " + document.getElementById("error").hidden`, "1 false")
	if q := c.eval(t, s, `asked[0]`); !strings.Contains(q, "agent 21 is asking (permission to use Bash)") {
		t.Errorf("the question: %q", q)
	}
	c.eval(t, s, `window.confirm = (q) => { asked.push(q); return true; }; "ok"`)
	send(t, c, s, "21", "y")
	c.waitFor(t, s, `document.getElementById("sent").textContent`, "Message sent to 1/1 agents of "+name)
	f.read(t, id, "21", "y\r")
}
