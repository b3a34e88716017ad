package main

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
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/api"
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

func TestWebPageInChromium(t *testing.T) {
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
	defer os.RemoveAll(dir)
	root, home, out := filepath.Join(dir, "root"), filepath.Join(dir, "home"), filepath.Join(dir, "out")
	for _, d := range []string{root, home, out} {
		os.MkdirAll(d, 0o755)
	}
	stub := filepath.Join(dir, "agent")
	os.WriteFile(stub, []byte("#!/bin/sh\nstty raw -echo\nexec cat >\""+out+"/$(basename \"$(pwd -P)\").in\"\n"), 0o755)
	t.Setenv("HOME", home)
	defer exec.Command("tmux", "kill-server").Run()

	vars := map[string]string{"MAS_ROOT": root, "MAS_AGENT_COMMAND": stub, "SHELL": "/bin/sh", "MAS_HTTP": "off"}
	a := newApp(env{getenv: func(k string) string { return vars[k] }, cwd: dir, stderr: &bytes.Buffer{}, stdout: &bytes.Buffer{}})
	srv := httptest.NewServer(api.Handler(backend{a}, ""))
	defer srv.Close()

	// Chromium reads commands on fd 3 and writes answers on fd 4.
	cmdR, cmdW, _ := os.Pipe()
	resR, resW, _ := os.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	browser := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--remote-debugging-pipe", "--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1280,1000", "about:blank")
	browser.ExtraFiles = []*os.File{cmdR, resW}
	if err := browser.Start(); err != nil {
		t.Fatal(err)
	}
	defer browser.Wait()
	defer cancel()
	cmdR.Close()
	resW.Close()
	c := &cdp{w: cmdW, r: bufio.NewReader(resR)}

	var target struct{ TargetID string }
	json.Unmarshal(c.call(t, "", "Target.createTarget", map[string]any{"url": srv.URL + "/"}), &target)
	var attached struct{ SessionID string }
	json.Unmarshal(c.call(t, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}), &attached)
	s := attached.SessionID
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
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, _ := os.ReadFile(filepath.Join(out, "21.in"))
		if string(got) == msg+"\r" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("agent 21 read %q, want %q", got, msg+"\r")
		}
		time.Sleep(50 * time.Millisecond)
	}
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
