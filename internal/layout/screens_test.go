package layout

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"mas/internal/tmuxtest"
	"mas/tmux"
)

// TestSnapshotScreensRealTmux lists the panes and reads the screens of a
// session in one tmux process, against tmux: a pane whose text and title
// look like the listing's and the screens' framing, a session that is not
// read ahead (another name), and the Screens reading that one then.
func TestSnapshotScreensRealTmux(t *testing.T) {
	r := tmuxtest.Server(t)
	counted := &counting{Client: r}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	script := func(name, text string) []string {
		return []string{"--", "sh", "-c", `printf '%s' "$1"; tmux wait-for -S "$2"; exec sleep 600`, "sh", text, name}
	}
	const target = "#{session_id}:.#{pane_id}"
	forged := "one\n'; kill-server ;\n#{pane_id} %1\n$0:.%9\n"
	out, err := r.Batch(ctx, nil,
		append([]string{"new-session", "-d", "-s", "mas-a", "-x", "80", "-y", "10", "-P", "-F", target}, script("a", forged)...),
		[]string{"select-pane", "-T", "mas\" ; kill-server ; \"#{pane_id}\n$0:.%7"},
		append([]string{"split-window", "-t", "=mas-a:", "-P", "-F", target}, script("b", "two\n")...),
		append([]string{"new-session", "-d", "-s", "other", "-x", "80", "-y", "10", "-P", "-F", target}, script("c", "three\n")...),
		// %3: display-message reads "%3" as strftime(3) would.
		append([]string{"new-window", "-t", "=mas-a:", "-P", "-F", target}, script("d", "four\n")...))
	if err != nil {
		t.Fatal(err)
	}
	ids := strings.Fields(string(out))
	for _, ch := range []string{"a", "b", "c", "d"} {
		if _, err := r.Run(ctx, nil, "wait-for", ch); err != nil {
			t.Fatal(err)
		}
	}
	want, err := Snapshot(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		want[i].Command = ""
	}
	for _, session := range []string{"", "mas-a", "bad name;"} {
		counted.n = 0
		panes, screens, err := SnapshotScreens(ctx, counted, session, "/a root", 5, false)
		if err != nil {
			t.Fatal(err)
		}
		for i := range panes {
			panes[i].Command = "" // sh, then sleep
		}
		if !slices.Equal(panes, want) {
			t.Errorf("%q: panes %+v, want Snapshot's %+v", session, panes, want)
		}
		got, err := screens.Capture(ctx, counted, []string{ids[0], ids[1], ids[3]})
		if err != nil || counted.n != 1 {
			t.Errorf("%q: %v, %d tmux processes; want the session's screens read with the listing, 1", session, err, counted.n)
		}
		if !slices.Equal(got[ids[0]], []string{"one", "'; kill-server ;", "#{pane_id} %1", "$0:.%9"}) ||
			!slices.Equal(got[ids[1]], []string{"two"}) || !slices.Equal(got[ids[3]], []string{"four"}) {
			t.Errorf("%q: screens %q", session, got)
		}
		got, err = screens.Capture(ctx, counted, ids[2:3])
		if err != nil || counted.n != 2 || !slices.Equal(got[ids[2]], []string{"three"}) {
			t.Errorf("%q: another session: %q, %v, %d tmux processes; want its screen read then, 2 in all", session, got, err, counted.n)
		}
	}
	if ok, _ := Exists(ctx, r, "mas-a"); !ok {
		t.Error("the session is gone: a pane's text or title ran as a command")
	}
}

// TestSnapshotScreensReadsNoOtherRoot: the screens of a session whose
// marks say it is another root's are not read ahead, those of the root's
// own are; a root a format cannot hold reads none ahead.
func TestSnapshotScreensReadsNoOtherRoot(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := r.Batch(ctx, nil,
		[]string{"new-session", "-d", "-s", "mas-b", "-P", "-F", "#{session_id}:.#{pane_id}", "--", "sleep", "600"},
		[]string{"set-option", "-t", "=mas-b:", RootOption, quoteOption("/their root")})
	if err != nil {
		t.Fatal(err)
	}
	pane := strings.TrimSpace(string(out))
	for _, tt := range []struct {
		root string
		read bool
		why  string
	}{
		{"/their root", true, "the root's own session"},
		{"/my root", false, "attack: another root's session of a name a command may select"},
		{"/their root,#{pane_id}", false, "a root a format cannot hold: nothing read ahead"},
	} {
		counted := &counting{Client: r}
		_, screens, err := SnapshotScreens(ctx, counted, "mas-b", tt.root, 5, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := screens.Capture(ctx, counted, []string{pane}); err != nil || (counted.n == 1) != tt.read {
			t.Errorf("%s: %v, %d tmux processes; read ahead: %v", tt.why, err, counted.n, tt.read)
		}
	}
}

// counting is a tmux.Client that counts the tmux processes it starts.
type counting struct {
	tmux.Client
	n int
}

func (c *counting) Run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	c.n++
	return c.Client.Run(ctx, stdin, args...)
}

func (c *counting) Batch(ctx context.Context, stdin io.Reader, cmds ...[]string) ([]byte, error) {
	c.n++
	return c.Client.Batch(ctx, stdin, cmds...)
}

// TestSnapshotScreensOnAnOlderTmux: a tmux that cannot run the batch
// (before 3.2, run-shell has no -C) gets the listing alone, as Snapshot
// makes it, and the screens are read later.
func TestSnapshotScreensOnAnOlderTmux(t *testing.T) {
	rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		if slices.Contains(args, "run-shell") {
			return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: "unknown flag -C"}
		}
		return nil, nil
	}}
	panes, screens, err := SnapshotScreens(context.Background(), rec, "", "/root", 5, true)
	calls := rec.Calls()
	if err != nil || len(panes) != 0 || screens == nil || len(calls) != 2 || calls[1][0] != "list-panes" || slices.Contains(calls[1], ";") {
		t.Errorf("%v, %v, %v; calls %q: want the batch, then list-panes alone", panes, screens, err, calls)
	}
}
