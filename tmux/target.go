package tmux

import "strings"

// Session is an exact target for commands that take a session
// (has-session, kill-session, attach-session, list-panes -s): tmux matches a
// plain name by prefix, so "mas-1" would otherwise find "mas-12345678".
// Commands that take a window or pane need SessionWindows or Window: tmux
// 3.3 resolves "=name" there as a window and silently finds nothing.
func Session(name string) string { return "=" + name }

// Window is an exact window target inside an exact session.
func Window(session, window string) string { return "=" + session + ":=" + window }

// SessionWindows targets the current window of an exact session, for
// commands that take a window or pane (new-window, display-message).
func SessionWindows(session string) string { return "=" + session + ":" }

// EscapeFormat doubles "#" so that tmux takes s literally in arguments it
// expands as a format: start directories (-c), window and session names.
func EscapeFormat(s string) string { return strings.ReplaceAll(s, "#", "##") }

// escapeArg keeps tmux from reading a final ";" as a command separator:
// tmux turns a trailing "\;" back into ";", so "end;" becomes "end\;" and
// "a\;" becomes "a\\;", which both arrive unchanged.
func escapeArg(s string) string {
	if strings.HasSuffix(s, ";") {
		return s[:len(s)-1] + `\;`
	}
	return s
}

func escapeArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = escapeArg(a)
	}
	return out
}
