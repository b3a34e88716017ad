package app

// The page's tests of the watched session's screens (issue 30): their
// colours, their lines, the tiles on one laptop screen, the send box of
// each tile; and of the list: newest first, times in the viewer's zone,
// the screens of one session only asked for. See browser_test.go for how
// they drive Chromium.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"mas/internal/api"
)

// openSized opens url in a new tab whose window is width x height, in
// time zone tz ("" for the machine's) and the locale en-US.
func (f *browserFixture) openSized(t *testing.T, url string, width, height int, tz string) string {
	t.Helper()
	s := f.open(t, "about:blank")
	f.c.call(t, s, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false})
	f.c.call(t, s, "Emulation.setLocaleOverride", map[string]any{"locale": "en-US"})
	if tz != "" {
		f.c.call(t, s, "Emulation.setTimezoneOverride", map[string]any{"timezoneId": tz})
	}
	f.c.call(t, s, "Page.navigate", map[string]any{"url": url})
	return s
}

// printTo makes agent's pane of session id show text, as its program
// would print it: written to the pane's terminal.
func printTo(t *testing.T, id, agent, text string) {
	t.Helper()
	out, err := exec.Command("tmux", "list-panes", "-s", "-t", "=mas-"+id[:8], "-F", "#{@mas_agent} #{pane_tty}").Output()
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(out)) {
		if a, tty, _ := strings.Cut(strings.TrimSpace(line), " "); a == agent {
			if err := os.WriteFile(tty, []byte(text), 0); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no pane of agent %s in %q", agent, out)
}

// key presses a key in the focused element through the browser's input,
// as a person does, not as a script's event (modifiers: 2 is Ctrl).
func key(t *testing.T, c *cdp, s, name string, modifiers int) {
	t.Helper()
	for _, typ := range []string{"keyDown", "keyUp"} {
		ev := map[string]any{"type": typ, "key": name, "code": name, "windowsVirtualKeyCode": 13, "modifiers": modifiers}
		if typ == "keyDown" && modifiers == 0 {
			ev["text"] = "\r"
		}
		c.call(t, s, "Input.dispatchKeyEvent", ev)
	}
}

// TestWebPageShowsColoursAsTextAndStyle: an agent's screen shows in its
// colours, its attributes and its long lines whole (wrapped by the page,
// not cut); what a program prints to inject markup, a link, a script or
// a style is shown as text or not at all, and every style on the screen
// is a colour built from numbers.
func TestWebPageShowsColoursAsTextAndStyle(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	id := f.run(t)
	long := strings.Repeat("w", 150) + " " + strings.Repeat("v", 150)
	printTo(t, id, "21", "\x1b[1;31mred bold\x1b[0m plain \x1b[38;5;200mpink\x1b[0m \x1b[38;2;10;200;30mtrue\x1b[0m \x1b[7minverse\x1b[0m\r\n"+
		"\x1b]8;;http://evil.test/x\x1b\\a link\x1b]8;;\x1b\\ </span><script>window.pwned = 1</script><img src=x onerror=\"pwned=2\">\r\n"+
		"\x1b[38;2;1;2;3);background:url(http://evil.test/css)mcss\x1b]52;c;cHduZWQ=\x07\x1b]0;evil title\x07\r\n"+
		long+"\r\ndone\r\n")

	s := f.open(t, url+"/?session="+id)
	c.waitFor(t, s, tileText("21")+`.includes("done")`, "true")
	screen := `document.querySelector('#grid [data-agent="21"] .screen')`
	span := func(text, what string) string {
		return c.eval(t, s, fmt.Sprintf(`(() => { const e = [...%s.querySelectorAll("span")].find((e) => e.textContent === %q);
			return e ? %s : "no span"; })()`, screen, text, what))
	}
	for _, tt := range []struct{ text, what, want, why string }{
		{"red bold", `e.className`, "fg1 bold", "a palette colour and bold, as classes"},
		{"red bold", `getComputedStyle(e).color + " " + getComputedStyle(e).fontWeight`, "rgb(224, 108, 117) 700", "shown red and bold"},
		{"pink", `e.getAttribute("style")`, "color: rgb(255, 0, 215);", "a 256-palette colour: rgb() of numbers"},
		{"true", `e.getAttribute("style")`, "color: rgb(10, 200, 30);", "true colour"},
		{"inverse", `e.className + " " + getComputedStyle(e).backgroundColor`, "inverse rgb(230, 230, 230)", "inverse swaps the default colours"},
		{" plain ", `e.className + "|" + e.getAttribute("style")`, "|null", "plain text has no style"},
	} {
		if got := span(tt.text, tt.what); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.why, got, tt.want)
		}
	}
	lines := strings.Split(c.eval(t, s, screen+`.textContent`), "\n")
	want := []string{"red bold plain pink true inverse",
		`a link </span><script>window.pwned = 1</script><img src=x onerror="pwned=2">`,
		"ackground:url(http://evil.test/css)mcss", // tmux reads the broken sequence up to its b, a final byte
		long, "done"}
	if len(lines) < len(want) || strings.Join(lines[len(lines)-len(want):], "\n") != strings.Join(want, "\n") {
		t.Errorf("the screen's lines:\n%q\nwant them to end with\n%q", lines, want)
	}

	// Nothing of the screen became markup, a link or a script, nor a
	// style but colours of numbers; the title is the page's own.
	checks := `(() => {
		const screens = [...document.querySelectorAll("#grid .screen")];
		const bad = [];
		for (const e of screens.flatMap((s) => [...s.querySelectorAll("*")])) {
			if (e.tagName !== "SPAN" || e.children.length) bad.push("element " + e.tagName);
			for (const a of e.attributes) {
				if (a.name === "class" && /^((fg|bg)([0-9]|1[0-5])|bold|dim|italic|underline|strike|inverse)( |$)/.test(a.value)) continue;
				if (a.name === "style" && /^((color|background-color): rgb\(\d+, \d+, \d+\);\s*)+$/.test(a.value)) continue;
				bad.push(a.name + "=" + a.value);
			}
		}
		if (window.pwned) bad.push("script ran: " + window.pwned);
		if (document.querySelectorAll("script").length !== 2) bad.push(document.querySelectorAll("script").length + " scripts");
		if (document.querySelector("a[href*=evil], img")) bad.push("a link or an image");
		if (document.title.includes("evil")) bad.push("title " + document.title);
		return bad.join("; ") || "clean";
	})()`
	if got := c.eval(t, s, checks); got != "clean" {
		t.Errorf("the screens hold %s", got)
	}

	// The long line is one line, wrapped at the tile's width: all of it
	// shows, none cut off at the side.
	if got := c.eval(t, s, screen+`.scrollWidth <= `+screen+`.clientWidth`); got != "true" {
		t.Errorf("the screen scrolls sideways: a line is cut off")
	}
	f.screenshot(t, s, "web-ui-colours.png", 1366, 768, false)
}

// TestWebPageFitsALaptopScreen: watching a session on a laptop's screen,
// 1366x768 or 1440x900, all 13 tiles show in the window at once.
func TestWebPageFitsALaptopScreen(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	id := f.run(t)
	f.run(t) // a second session in the list, above the screens
	for _, size := range [][2]int{{1366, 768}, {1440, 900}} {
		s := f.openSized(t, url+"/?session="+id, size[0], size[1], "")
		c.waitFor(t, s, `document.querySelectorAll("#grid .tile").length + " " + reveal`, "13 false")
		c.eval(t, s, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r("ok"))))`)
		outside := c.eval(t, s, `[...document.querySelectorAll("#grid .tile")].filter((e) => {
			const r = e.getBoundingClientRect();
			return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth || r.height < 100;
		}).map((e) => e.dataset.agent + " " + JSON.stringify(e.getBoundingClientRect())).join("; ") || "none"`)
		if outside != "none" {
			t.Errorf("%dx%d: tiles outside the window (%s), or too small: %s", size[0], size[1], c.eval(t, s, `innerWidth + "x" + innerHeight`), outside)
		}
		f.screenshot(t, s, fmt.Sprintf("web-ui-%dx%d.png", size[0], size[1]), size[0], size[1], false)
	}
}

// TestWebPageSendsFromATile: each tile has a box that sends to its agent
// alone, on Ctrl+Enter (Enter alone is a new line), pressing Enter after
// the text unless "press Enter" is unticked, when the tile says the text
// is typed, not submitted; a box is emptied once sent. A click on a tile
// makes it the message box's target, which is no agent before.
func TestWebPageSendsFromATile(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	id := f.run(t)
	s := f.open(t, url+"/?session="+id)
	c.waitFor(t, s, `document.querySelectorAll("#grid .tile").length`, "13")
	form := `document.getElementById("message")`
	if got := c.eval(t, s, form+`.elements.target.value + "|" + `+form+`.elements.execute.checked`); got != "|true" {
		t.Errorf("the message box's target and press Enter: %q, want none and ticked", got)
	}
	box := func(agent string) string {
		return `document.querySelector('#grid [data-agent="` + agent + `"] .send textarea')`
	}
	posts := func() int {
		got, _ := f.requests.seen()
		n := 0
		for _, p := range got {
			if p == "POST /message" {
				n++
			}
		}
		return n
	}

	// Enter is a new line; Ctrl+Enter sends, to 21 alone, and empties
	// the box.
	c.eval(t, s, box("21")+`.focus(); `+box("21")+`.value = "hi"; "ok"`)
	key(t, c, s, "Enter", 0)
	if got := c.eval(t, s, box("21")+`.value`); got != "hi\n" {
		t.Errorf("after Enter the box holds %q, want a new line", got)
	}
	c.eval(t, s, box("21")+`.value = "from the tile"; "ok"`)
	key(t, c, s, "Enter", 2)
	f.read(t, id, "21", "from the tile\r")
	c.waitFor(t, s, box("21")+`.value`, "")
	if n := posts(); n != 1 {
		t.Errorf("%d messages posted, want 1: Enter alone sent one", n)
	}
	f.read(t, id, "22", "")

	// Unticked: typed into 22, not submitted, and its tile says so until
	// a message with Enter reaches it.
	typed := `document.querySelector('#grid [data-agent="22"] .typed').hidden`
	c.eval(t, s, form+`.elements.execute.checked = false; `+box("22")+`.value = "draft"; document.querySelector('#grid [data-agent="22"] .send button').click(); "ok"`)
	f.read(t, id, "22", "draft")
	c.waitFor(t, s, typed, "false")
	c.waitFor(t, s, `document.getElementById("sent").textContent.includes("typed, not submitted")`, "true")
	c.eval(t, s, form+`.elements.execute.checked = true; `+box("22")+`.value = " and go"; document.querySelector('#grid [data-agent="22"] .send button').click(); "ok"`)
	f.read(t, id, "22", "draft and go\r")
	c.waitFor(t, s, typed, "true")

	// A click on 23's tile makes it the message box's target; the box
	// sends on Ctrl+Enter and empties.
	c.eval(t, s, click(`#grid [data-agent="23"] .screen`))
	if got := c.eval(t, s, form+`.elements.target.value + " " + document.querySelector("#grid .tile.chosen").dataset.agent`); got != "23 23" {
		t.Errorf("after a click on 23's tile, the target and the tile marked: %q", got)
	}
	c.eval(t, s, form+`.elements.text.focus(); `+form+`.elements.text.value = "to the chosen one"; "ok"`)
	key(t, c, s, "Enter", 2)
	f.read(t, id, "23", "to the chosen one\r")
	c.waitFor(t, s, form+`.elements.text.value`, "")
	c.waitFor(t, s, tileText("23")+`.includes("to the chosen one")`, "true")
	if got := c.eval(t, s, `[...document.querySelectorAll("#grid .tile.chosen")].map((e) => e.dataset.agent).join(" ")`); got != "23" {
		t.Errorf("after a refresh the tiles marked chosen: %q, want 23", got)
	}
	f.read(t, id, "21", "from the tile\r")
}

// TestWebPageListsNewestFirstInTheViewersZone: the list shows the session
// created last first, its time in the viewer's time zone and way of
// writing dates (the API's RFC 3339 in the tooltip); of the sessions
// listed, only the watched one's screens are asked for.
func TestWebPageListsNewestFirstInTheViewersZone(t *testing.T) {
	f := newBrowserFixture(t)
	url, _, _ := f.serve(t, api.Options{})
	c := f.c
	ids := []string{f.run(t), f.run(t), f.run(t)}
	// Created a day apart, the first last.
	times := []string{"2026-03-04T23:30:00Z", "2026-03-02T10:00:00Z", "2026-03-03T10:00:00Z"}
	for i, id := range ids {
		file := filepath.Join(f.sessionDir(t, id), ".session")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data = regexp.MustCompile(`(?m)^CREATED_AT=.*$`).ReplaceAll(data, []byte("CREATED_AT="+times[i]))
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	list, err := Backend{f.a}.Sessions(context.Background())
	if err != nil || len(list) != 3 {
		t.Fatal(list, err)
	}
	for _, l := range list {
		if _, err := time.Parse(time.RFC3339, l.CreatedAt); err != nil {
			t.Errorf("GET /sessions: createdAt %q is not RFC 3339: %v", l.CreatedAt, err)
		}
	}

	s := f.openSized(t, url+"/?session="+ids[1], 1280, 800, "Asia/Kolkata")
	rows := `[...document.querySelectorAll("#sessions tbody tr")].map((e) => e.dataset.id).join(" ")`
	c.waitFor(t, s, rows, ids[0]+" "+ids[2]+" "+ids[1])
	cell := `document.querySelector('#sessions tr[data-id="` + ids[0] + `"] td.created')`
	// Kolkata is 5:30 ahead of UTC: 23:30 UTC is 5:00 the next morning.
	if got := c.eval(t, s, cell+`.textContent.replace(/\s/g, " ") + " | " + `+cell+`.title`); got != "3/5/2026, 5:00:00 AM | "+times[0] {
		t.Errorf("the time shown: %q", got)
	}

	// Three refreshes on, only the watched session's screens were asked
	// for.
	c.waitFor(t, s, `document.querySelectorAll("#grid .tile").length`, "13")
	for deadline := time.Now().Add(patience); ; time.Sleep(50 * time.Millisecond) {
		got, _ := f.requests.seen()
		var outputs []string
		for _, p := range got {
			if strings.HasSuffix(p, "/output") {
				outputs = append(outputs, p)
			}
		}
		if strings.Count(strings.Join(outputs, ","), "GET /sessions/"+ids[1]+"/output") != len(outputs) {
			t.Fatalf("watching %s, the page asked for %q", ids[1], outputs)
		}
		if len(outputs) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page asked for the screens %d times in %s", len(outputs), patience)
		}
	}
}
