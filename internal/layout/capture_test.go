package layout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"mas/internal/faketmux"
	"mas/internal/sgr"
	"mas/internal/tmuxtest"
	"mas/tmux"
)

// TestCapture reads the panes of a session in one tmux call: the last n
// lines of each, the panes after one that is gone included.
func TestCapture(t *testing.T) {
	f, rec := faketmux.New()
	ctx := context.Background()
	f.Add("mas-a")
	var history []string
	for i := 1; i <= 30; i++ {
		history = append(history, fmt.Sprintf("line %d", i))
	}
	f.SetScreen("mas-a", "00", history...)
	f.SetScreen("mas-a", "10", "", "  indented", "", "between blanks", "   ")
	f.SetScreen("mas-a", "11")
	byAgent := AgentPanes(Of(mustSnapshot(t, rec), "mas-a"))
	f.RemovePane("mas-a", "12") // gone between the listing and the capture
	var panes []string
	for _, id := range []string{"00", "10", "11", "12", "13"} {
		panes = append(panes, byAgent[id].Target())
	}
	before := len(rec.Calls())
	got, err := Capture(ctx, rec, panes, 5)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Calls()) - before; n != 1 {
		t.Errorf("%d tmux calls, want 1 for every pane", n)
	}
	want := map[string][]string{
		panes[0]: {"line 26", "line 27", "line 28", "line 29", "line 30"},
		panes[1]: {"", "  indented", "", "between blanks"},
		panes[2]: {},
		panes[4]: {"agent 13 of mas-a"},
	}
	for p, lines := range want {
		if !slices.Equal(got[p], lines) || got[p] == nil {
			t.Errorf("pane %s: %q, want %q", p, got[p], lines)
		}
	}
	if _, ok := got[panes[3]]; ok || len(got) != 4 {
		t.Errorf("the pane that is gone was read: %q", got)
	}
}

// TestCaptureTextThatLooksLikeMarkers: a pane may print anything, markers
// of earlier captures included; its lines stay its own.
func TestCaptureTextThatLooksLikeMarkers(t *testing.T) {
	f, rec := faketmux.New()
	ctx := context.Background()
	f.Add("mas-a")
	panes := []string{"$0:.%000", "$0:.%010"}
	if _, err := Capture(ctx, rec, panes, 10); err != nil {
		t.Fatal(err)
	}
	// The marker of the first call, as a program that read it would print
	// it, and others that a guess would make.
	first := rec.Calls()[0]
	old := strings.Trim(strings.SplitN(first[3], "display-message -p ", 2)[1], "'")
	text := []string{old, strings.Replace(old, " 0", " 1", 1), "0", "'", "x ; kill-server", ""}
	f.SetScreen("mas-a", "00", text...)
	got, err := Capture(ctx, rec, panes, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got[panes[0]], text[:5]) || !slices.Equal(got[panes[1]], []string{"agent 10 of mas-a"}) {
		t.Errorf("got %q", got)
	}
	if second := rec.Calls()[1]; second[3] == first[3] {
		t.Errorf("two captures used the same marker: %q", second[3])
	}
}

func TestCaptureRefusesBadInput(t *testing.T) {
	tests := []struct {
		panes []string
		n     int
		why   string
	}{
		{[]string{"$1:.%1"}, 0, "no lines"},
		{[]string{"$1:.%1"}, -3, "negative"},
		{[]string{"$1:.%1"}, MaxCaptureLines + 1, "more than the cap"},
		{[]string{"$1:.%1 ; kill-server"}, 10, "attack: text in a pane id would be a tmux command"},
		{[]string{"$1:.%1' ; kill-server '"}, 10, "attack: a quote would end the target's quoting"},
		{[]string{"mas-a:meta"}, 10, "a target that is not a pane id"},
		{[]string{"$1:.%"}, 10, "no number"},
		{[]string{"%1"}, 10, "a bare pane id: tmux would find it in any session"},
		{[]string{"=mas-a:.%1"}, 10, "a session by name, which another session may take"},
	}
	for _, tt := range tests {
		rec := &tmux.Recorder{}
		if _, err := Capture(context.Background(), rec, tt.panes, tt.n); err == nil || len(rec.Calls()) != 0 {
			t.Errorf("%s: %v with %d tmux calls; want an error and none", tt.why, err, len(rec.Calls()))
		}
	}
	if _, err := Capture(context.Background(), &tmux.Recorder{}, []string{"$1:.%1"}, 0); !errors.Is(err, ErrLines) {
		t.Errorf("no lines: %v, want ErrLines", err)
	}
}

func TestCaptureFailures(t *testing.T) {
	tests := []struct {
		stderr string
		ok     bool
		why    string
	}{
		{"no server running on /tmp/tmux-0/x", true, "the server is gone: so is every pane"},
		{"can't find pane: %1\ncan't find pane: %2", true, "panes gone: not an error"},
		{"can't find pane: %1\npermission denied", false, "a real failure beside a gone pane"},
		{"permission denied", false, "a real failure"},
	}
	for _, tt := range tests {
		rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
			return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: tt.stderr}
		}}
		got, err := Capture(context.Background(), rec, []string{"$1:.%1", "$1:.%2"}, 10)
		if tt.ok && (err != nil || len(got) != 0 || got == nil) || !tt.ok && err == nil {
			t.Errorf("%s: %q, %v", tt.why, got, err)
		}
	}
}

func TestScreenText(t *testing.T) {
	tests := []struct{ in, want, why string }{
		{"plain \t text", "plain \t text", "text and tabs stay"},
		{"\u00e9\u65e5 \U0001F600", "\u00e9\u65e5 \U0001F600", "unicode stays"},
		{"a\x1b]0;title\x07b", "a\uFFFD]0;title\uFFFDb", "attack: an escape sequence would drive the terminal that shows it"},
		{"a\u009b31mb", "a\uFFFD31mb", "attack: a C1 CSI"},
		{"a\xffb\x7f", "a\uFFFDb\uFFFD", "bytes that are not UTF-8, DEL"},
		{"a\x1fb ~\x00", "a\uFFFDb ~\uFFFD", "the edges of printable ASCII: the last control, space, tilde, NUL"},
		{"ok /* \u202e } \u2066if (admin)\u2069 \u2066 */", "ok /* \uFFFD } \uFFFDif (admin)\uFFFD \uFFFD */", "issue 24, attack: bidi overrides and isolates show text in another order than it is"},
		{"\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2067\u2068", strings.Repeat("\uFFFD", 9), "every bidi control: the marks, embeddings, pops, isolates"},
		{"\u200d\u2060\u05d0\u0627 \u200b", "\u200d\u2060\u05d0\u0627 \u200b", "joiners, a zero-width space, Hebrew and Arabic letters stay: text, not controls"},
	}
	for _, tt := range tests {
		if got := Printable(tt.in); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.why, got, tt.want)
		}
	}
}

func mustSnapshot(t *testing.T, c tmux.Client) []PaneInfo {
	t.Helper()
	panes, err := Snapshot(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return panes
}

// TestCaptureRealTmux runs the capture against tmux: a pane that prints
// tmux syntax and lines like markers, a pane closed after the listing,
// the pane after it, and a pane of another session named through this
// one's id.
func TestCaptureRealTmux(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Each pane prints, then says so through wait-for (latched: no race).
	script := func(name, text string) []string {
		return []string{"--", "sh", "-c", `printf '%s' "$1"; tmux wait-for -S "$2"; exec sleep 600`, "sh", text, name}
	}
	const target = "#{session_id}:.#{pane_id}"
	cmds := [][]string{
		append([]string{"new-session", "-d", "-s", "cap", "-x", "80", "-y", "10", "-P", "-F", target},
			script("a", "one\ntwo\n'; kill-server ;\n#{pane_id} %1\n")...),
		append([]string{"split-window", "-t", "=cap:", "-P", "-F", target}, script("b", "gone\n")...),
		append([]string{"split-window", "-t", "=cap:", "-P", "-F", target}, script("c", seq(1, 25))...),
		append([]string{"new-session", "-d", "-s", "other", "-x", "80", "-y", "10", "-P", "-F", target}, script("d", "secret\n")...),
	}
	out, err := r.Batch(ctx, nil, cmds...)
	if err != nil {
		t.Fatal(err)
	}
	panes := strings.Fields(string(out))
	for _, ch := range []string{"a", "b", "c", "d"} {
		if _, err := r.Run(ctx, nil, "wait-for", ch); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Run(ctx, nil, "kill-pane", "-t", panes[1]); err != nil {
		t.Fatal(err)
	}
	session, _, _ := strings.Cut(panes[0], ":.")
	_, otherPane, _ := strings.Cut(panes[3], ":.")
	foreign := tmux.Pane(session, otherPane)
	got, err := Capture(ctx, r, []string{panes[0], panes[1], panes[2], foreign}, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		panes[0]: {"one", "two", "'; kill-server ;", "#{pane_id} %1"},
		panes[2]: {"line 22", "line 23", "line 24", "line 25"},
	}
	if len(got) != 2 || !slices.Equal(got[panes[0]], want[panes[0]]) || !slices.Equal(got[panes[2]], want[panes[2]]) {
		t.Errorf("got %q, want %q; never the pane of another session (%s)", got, want, foreign)
	}
	if ok, _ := Exists(ctx, r, "cap"); !ok {
		t.Error("the session is gone: a pane's text ran as a command")
	}
}

// seq is the lines "line from" to "line to".
func seq(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// TestCaptureStyledRealTmux reads a pane with its colours against tmux:
// a line wider than the pane comes back whole, colours and attributes as
// runs, trailing spaces dropped but those with a background, and what a
// program prints to inject markup, a link or a title is text or nothing.
func TestCaptureStyledRealTmux(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	long := strings.Repeat("a", 50) + strings.Repeat("b", 20)
	text := "\x1b[1;31mred bold\x1b[0m plain \x1b[38;5;200mpink\x1b[0m\n" +
		long + "\n" +
		"end   \n" +
		"\x1b[44mbar  \x1b[0m\n" +
		"\x1b]8;;http://evil.test/\x1b\\link\x1b]8;;\x1b\\ </span><script>x</script>\x1b]0;title\x07\n"
	out, err := r.Run(ctx, nil, "new-session", "-d", "-s", "sty", "-x", "40", "-y", "12", "-P", "-F", "#{session_id}:.#{pane_id}",
		"--", "sh", "-c", `printf '%s' "$1"; tmux wait-for -S done; exec sleep 600`, "sh", text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run(ctx, nil, "wait-for", "done"); err != nil {
		t.Fatal(err)
	}
	pane := strings.TrimSpace(string(out))
	got, err := CaptureStyled(ctx, r, []string{pane}, 20)
	if err != nil {
		t.Fatal(err)
	}
	var texts, runs []string
	for _, l := range got[pane] {
		texts = append(texts, l.Text)
		var b strings.Builder
		for _, run := range l.Runs {
			st, _ := json.Marshal(run.Style)
			b.WriteString("[" + run.Text + "|" + string(st) + "]")
		}
		runs = append(runs, b.String())
	}
	wantTexts := []string{"red bold plain pink", long, "end", "bar  ", "link </span><script>x</script>"}
	wantRuns := []string{`[red bold|{"fg":1,"bold":true}][ plain |{}][pink|{"fg":[255,0,215]}]`, "[" + long + "|{}]", "[end|{}]",
		`[bar  |{"bg":4}]`, "[link </span><script>x</script>|{}]"}
	if !slices.Equal(texts, wantTexts) || !slices.Equal(runs, wantRuns) {
		t.Errorf("got\n%q\n%q\nwant\n%q\n%q", texts, runs, wantTexts, wantRuns)
	}
	rows, err := Capture(ctx, r, []string{pane}, 20)
	if want := []string{"red bold plain pink", long[:40], long[40:], "end", "bar", "link </span><script>x</script>"}; err != nil || !slices.Equal(rows[pane], want) {
		t.Errorf("Capture: %q, %v; want the rows as the screen shows them, %q", rows[pane], err, want)
	}
}

// TestStyledLineOfManyRuns guards a line whose every cell has a style of
// its own (bold on and off, as an agent may print it): its text was
// copied again for each run, memory and time the square of its length.
func TestStyledLineOfManyRuns(t *testing.T) {
	const cells = 20000
	runs := make([]sgr.Run, cells)
	for i := range runs {
		runs[i] = sgr.Run{Text: "ab", Style: sgr.Style{Bold: i%2 == 0}}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l := styledLine(runs)
	runtime.ReadMemStats(&after)
	if l.Text != strings.Repeat("ab", cells) || len(l.Runs) != cells {
		t.Fatalf("styledLine: text %.20q… of %d bytes and %d runs, want %d runs of ab", l.Text, len(l.Text), len(l.Runs), cells)
	}
	if bytes := after.TotalAlloc - before.TotalAlloc; bytes > 100*uint64(len(l.Text)) {
		t.Errorf("styledLine of %d runs allocated %d bytes, want some times its text's %d", cells, bytes, len(l.Text))
	}
}
