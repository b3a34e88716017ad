package cli

import (
	"bytes"
	"context"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"mas/internal/app"
	"mas/internal/faketmux"
	"mas/internal/layout"
	"mas/tmux"
)

// TestSendDoubleDash pins the documented "--" rule for a command whose
// positionals are literal (issue 14 point 10).
func TestSendDoubleDash(t *testing.T) {
	root := newTestCommandLine().root
	tests := []struct {
		in  []string
		out []string // nil: a usage error
		why string
	}{
		{[]string{"00", "--", "-e"}, []string{"--", "00", "-e"}, "issue 14: -- ends the flags, so -e is the message and Enter is not pressed"},
		{[]string{"--", "00", "-e"}, []string{"--", "00", "-e"}, "-- before the target"},
		{[]string{"00", "--", "--"}, []string{"--", "00", "--"}, "the text -- after the marker"},
		{[]string{"00", "--"}, []string{"--", "00", "--"}, "a final -- where the message is missing is the message (bats/send.bats)"},
		{[]string{"00", "-e"}, []string{"--", "00", "-e"}, "literal positionals: -e is the text, as with the bash tool"},
		{[]string{"00", "hi", "-e", "--"}, []string{"--execute", "--", "00", "hi"}, "a final -- after the positionals ends nothing"},
		{[]string{"00", "--", "-e", "-e"}, []string{"--", "00", "-e", "-e"}, "after --, the second -e is a third positional, never Enter: send <from> <target> <message>, refused by send (TestSendFrom)"},
		{[]string{"00", "hi", "--", "-e"}, []string{"--", "00", "hi", "-e"}, "after --, -e is a positional, never Enter (TestSendFrom)"},
		{[]string{"11", "10", "hello"}, []string{"--", "11", "10", "hello"}, "issue 26: the later versions' send <from> <to> <message>"},
		{[]string{"11", "10", "-e"}, []string{"--execute", "--", "11", "10"}, "a third word that looks like a flag is one, as the later versions read it: the text 10 to agent 11, with Enter"},
		{[]string{"11", "10", "hi", "-e"}, []string{"--execute", "--", "11", "10", "hi"}, "flags after the three positionals"},
		{[]string{"-e", "11", "10", "hi"}, nil, "the first two words are literal, whatever they look like: four positionals"},
		{[]string{"11", "10", "--", "-e"}, []string{"--", "11", "10", "-e"}, "after --, the text -e from 11 to 10"},
		{[]string{"11", "10", "hi", "there"}, nil, "a fourth positional"},
	}
	for _, tt := range tests {
		r := read(root, append([]string{"send"}, tt.in...), false)
		switch err := r.err; {
		case tt.out == nil && !isUsage(err):
			t.Errorf("send %q: got %q, %v; want a usage error (%s)", tt.in, r.argv(), err, tt.why)
		case tt.out != nil && (err != nil || !slices.Equal(r.argv(), tt.out)):
			t.Errorf("send %q: got %q, %v; want %q (%s)", tt.in, r.argv(), err, tt.out, tt.why)
		}
	}
}

func isUsage(err error) bool {
	_, ok := err.(*app.UsageError)
	return ok
}

// typing is a tmux client that keeps the text each batch is given on its
// stdin: what send types.
type typing struct {
	*tmux.Recorder
	texts []string
}

func (c *typing) Batch(ctx context.Context, in io.Reader, cmds ...[]string) ([]byte, error) {
	if in != nil {
		b, _ := io.ReadAll(in)
		c.texts = append(c.texts, string(b))
	}
	return c.Recorder.Batch(ctx, nil, cmds...)
}

// TestSendFrom: a message from an agent says so, whether the command
// names the sender (the later versions' send <from> <to> <message>) or
// is run in the agent's pane, whose tag tmux keeps; the variables a
// process inherits never name a sender (issue 26 point 4).
func TestSendFrom(t *testing.T) {
	tests := []struct {
		args []string
		here string            // agent of the pane send runs in ($TMUX, $TMUX_PANE); "b11": agent 11 of another session
		vars map[string]string // more environment
		text string            // what the agents read; "" for nothing typed
		to   string            // the agent it went to
		err  string            // "usage: …" for a usage error
		why  string
	}{
		{args: []string{"10", "hi"}, text: "hi", to: "10", why: "a person's message is the message"},
		{args: []string{"11", "10", "hi"}, text: "[From: Agent 11] hi", to: "10", why: "the later versions' form and prefix"},
		{args: []string{"agent-11", "10", "hi", "-e"}, text: "[From: Agent 11] hi", to: "10", why: "agent-NN names the sender too; flags after the three"},
		{args: []string{"10", "hi"}, here: "11", text: "[From: Agent 11] hi", to: "10", why: "from an agent's pane, the message says who sent it"},
		{args: []string{"11", "10", "hi"}, here: "11", text: "[From: Agent 11] hi", to: "10", why: "the pane's own id: prefixed once"},
		{args: []string{"12", "10", "hi"}, here: "11", err: "usage: send: this is agent 11's pane: its messages are from 11, not 12", why: "an agent does not send as another"},
		{args: []string{"10", "hi"}, here: "11", vars: map[string]string{"MAS_AGENT_ID": "12"}, text: "[From: Agent 11] hi", to: "10", why: "the pane's tag, not the variable"},
		{args: []string{"10", "hi"}, vars: map[string]string{"MAS_AGENT_ID": "12"}, text: "hi", to: "10", why: "a variable inherited outside any pane names no sender"},
		{args: []string{"10", "hi"}, here: "b11", vars: map[string]string{"MAS_SESSION_NAME": "mas-a"}, text: "hi", to: "10", why: "a pane of another session is not an agent of this one"},
		{args: []string{"10", "hi"}, here: "11", vars: map[string]string{"MAS_TMUX_SOCKET": "other"}, text: "hi", to: "10", why: "$TMUX_PANE is a pane of another server"},
		{args: []string{"10", "/clear"}, here: "11", text: "/clear", to: "10", why: "an agent's command stays one"},
		{args: []string{"0", "hi"}, text: "hi", to: "00", why: "issue 26: the later versions' window numbers"},
		{args: []string{"11", "0", "hi"}, text: "[From: Agent 11] hi", to: "00", why: "a number as the target of the three-positional form"},
		{args: []string{"00", "--", "-e", "-e"}, err: `usage: send: "-e" names no agent`, why: "after --, a third positional: nothing typed, never Enter"},
		{args: []string{"00", "hi", "--", "-e"}, err: `usage: send: "hi" names no agent`, why: "send 00 hi -- -e is no message to 00"},
		{args: []string{"design", "10", "hi"}, err: `usage: send: "design" is not an agent id`, why: "a sender is one agent"},
	}
	for _, tt := range tests {
		name := strings.Join(tt.args, " ")
		c, paneOf, verbs, root := sendSetup(t, tt.here, tt.vars)
		var stdout bytes.Buffer
		e := IO{Args: append([]string{"mas", "send"}, tt.args...), Getenv: verbs.Getenv, Stdin: strings.NewReader(""),
			Stdout: &stdout, Stderr: io.Discard, Cwd: root, Version: "test"}
		err := newCommandLine(e, verbs).run(context.Background(), e.Args[1:])
		switch msg, usage := strings.CutPrefix(tt.err, "usage: "); {
		case tt.err == "" && err != nil:
			t.Errorf("send %s: %v (%s)", name, err, tt.why)
		case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), msg) || usage != isUsage(err)):
			t.Errorf("send %s: error %v, want %q (%s)", name, err, tt.err, tt.why)
		}
		typed, into := c.texts, pastedInto(c.Calls())
		switch {
		case tt.text == "" && len(typed) > 0:
			t.Errorf("send %s: typed %q, want nothing (%s)", name, typed, tt.why)
		case tt.text != "" && (len(typed) != 1 || typed[0] != tt.text):
			t.Errorf("send %s: typed %q, want %q (%s)", name, typed, tt.text, tt.why)
		case tt.text != "" && (len(into) != 1 || !strings.HasSuffix(into[0], paneOf["a"+tt.to])):
			t.Errorf("send %s: typed into %q, want agent %s of mas-a (%s)", name, into, tt.to, tt.why)
		}
	}
}

// sendSetup runs mas-a and mas-b on a fake tmux server and returns a
// client that keeps what is typed, the panes by session letter and agent
// ("a11"), and verbs acting on mas-a from the pane here names ("11": of
// mas-a, "b11": of mas-b, "": none), with the variables more.
func sendSetup(t *testing.T, here string, more map[string]string) (c *typing, paneOf map[string]string, verbs *app.App, root string) {
	t.Helper()
	f, rec := faketmux.New()
	f.Add("mas-a", "mas-b")
	c = &typing{Recorder: rec}
	panes, err := layout.Snapshot(context.Background(), rec)
	if err != nil {
		t.Fatal(err)
	}
	paneOf = map[string]string{}
	for _, p := range panes {
		paneOf[strings.TrimPrefix(p.Session, "mas-")+p.Agent] = p.ID
	}
	root = t.TempDir()
	vars := map[string]string{"MAS_ROOT": root, "MAS_SESSION_NAME": "mas-a"}
	if here != "" {
		if len(here) == 2 {
			here = "a" + here
		}
		vars["TMUX"], vars["TMUX_PANE"] = "/tmp/tmux-1/default,1,0", paneOf[here]
	}
	maps.Copy(vars, more)
	verbs = &app.App{Env: app.Env{Getenv: func(k string) string { return vars[k] }, Cwd: root},
		Tmux: c, AnyServer: c, Now: time.Now}
	return c, paneOf, verbs, root
}

// pastedInto are the -t targets of the paste-buffer calls among calls.
func pastedInto(calls [][]string) []string {
	var into []string
	for _, call := range calls {
		for i, a := range call {
			if a == "paste-buffer" {
				for j := i; j+1 < len(call); j++ {
					if call[j] == "-t" {
						into = append(into, call[j+1])
						break
					}
				}
			}
		}
	}
	return into
}
