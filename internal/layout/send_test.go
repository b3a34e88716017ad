package layout

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"mas/internal/tmuxtest"
	"mas/tmux"
)

func TestSendRefusesUntypableText(t *testing.T) {
	tests := []struct {
		text string
		ok   bool
		why  string
	}{
		{"plain text", true, "ordinary text is typed"},
		{"C-c Enter Escape tab\tlf\n", true, "key names, tabs and line feeds are pasted as text, as documented"},
		{"harmless\x03\ntouch pwned\nx", false, "attack: Ctrl-C aborts the paste in a shell and the next line runs as typed"},
		{"hi\x03", false, "attack: Ctrl-C kills the agent and its pane"},
		{"a\x1a", false, "Ctrl-Z stops the agent"},
		{"a\x1c", false, "Ctrl-\\ quits the agent"},
		{"\x1b[A", false, "ESC starts a key sequence (here: Up) whatever the paste"},
		{"\x1b[201", false, "an ESC is refused even without a full paste marker"},
		{"line\r\n", false, "CR is Enter to a terminal (CRLF text)"},
		{"a\x7fb", false, "DEL erases the character before it"},
		{"a\u0085b", false, "a C1 control (NEL)"},
		{"a\xffb", false, "bytes that are not UTF-8"},
		{"a\ufffdb", true, "U+FFFD itself is text"},
		{"[201~ 201~", true, "the marker's tail without ESC is text"},
		{"\u00e9\u65e5", true, "unicode is text"},
		{"ok\x1b[201~\rrm -rf ~\r", false, "issue 14: ESC[201~ ends the paste: the rest would run as typed keys"},
		{"\x1b[200~nested", false, "ESC[200~ starts a paste inside the paste"},
		{"a\x9b201~b", false, "8-bit CSI end marker (byte 0x9b)"},
		{"a\u009b200~b", false, "U+009B, the UTF-8 form of the 8-bit CSI"},
		{"a\x00b", false, "issue 14: a NUL cannot be typed (programs read it as the end of the text)"},
		{"\x00", false, "a lone NUL"},
	}
	for _, tt := range tests {
		rec := &tmux.Recorder{}
		n, err := Send(context.Background(), rec, []string{"$1:.%1", "$1:.%2"}, tt.text, true)
		calls := rec.Calls()
		switch {
		case tt.ok && (err != nil || n != 2 || len(calls) != 1):
			t.Errorf("Send(%q) = %d, %v with %d tmux calls; want 2 panes in one call (%s)", tt.text, n, err, len(calls), tt.why)
		case !tt.ok && (!errors.Is(err, ErrUntypable) || n != 0 || len(calls) != 0):
			t.Errorf("Send(%q) = %d, %v with tmux calls %q; want ErrUntypable and no tmux call (%s)", tt.text, n, err, calls, tt.why)
		}
		if err := CheckText(tt.text); (err == nil) != tt.ok {
			t.Errorf("CheckText(%q) = %v (%s)", tt.text, err, tt.why)
		}
	}
}

// TestSendOnTmuxOnlyIntoTheSession: a pane target names its session, and
// tmux types nothing into a pane of another session, whatever its id.
func TestSendOnTmuxOnlyIntoTheSession(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const target = "#{session_id}:.#{pane_id}"
	out, err := r.Batch(ctx, nil, []string{"new-session", "-d", "-s", "a", "-P", "-F", target, "--", "cat"},
		[]string{"new-session", "-d", "-s", "b", "-P", "-F", target, "--", "cat"})
	if err != nil {
		t.Fatal(err)
	}
	panes := strings.Fields(string(out))
	a, _, _ := strings.Cut(panes[0], ":.")
	_, b, _ := strings.Cut(panes[1], ":.")
	if n, err := Send(ctx, r, []string{tmux.Pane(a, b)}, "typed through a", true); n != 0 || err == nil || !strings.Contains(err.Error(), "can't find pane") {
		t.Errorf("send to b's pane through a: %d, %v; want tmux's refusal", n, err)
	}
	if n, err := Send(ctx, r, []string{panes[1]}, "b's own", true); n != 1 || err != nil {
		t.Fatalf("send to b's pane: %d, %v", n, err)
	}
	var screen []byte
	waitUntil(t, "b's own text on its screen", func() bool {
		screen, err = r.Run(ctx, nil, "capture-pane", "-p", "-t", panes[1])
		return err == nil && strings.Contains(string(screen), "b's own")
	})
	if strings.Contains(string(screen), "typed through a") {
		t.Errorf("b's pane got the text sent through a: %q", screen)
	}
}

func ExampleCheckText() {
	fmt.Println(CheckText("hi\x1b[201~\r"))
	// Output: message has the bracketed-paste sequence "\x1b[201~" at byte 2, which would end the paste and type the rest as keys: cannot be typed as text
}
