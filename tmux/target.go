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

// TopLeftPane targets the top-left pane of a window, as Window names it.
func TopLeftPane(session, window string) string { return Window(session, window) + ".{top-left}" }

// SessionWindows targets the current window of an exact session, for
// commands that take a window or pane (new-window, display-message).
func SessionWindows(session string) string { return "=" + session + ":" }

// Pane targets the pane whose id (%N) is pane inside the session whose id
// ($N) is session. Commands that must find their target (send-keys,
// paste-buffer, capture-pane) resolve it only while the pane is in a
// window of that session, and fail with "can't find pane" otherwise: a
// pane id, however it was read, never reaches a pane of another session,
// as a bare "%N", found anywhere on the server, would. (Commands that may
// fail to find theirs, display-message, if-shell and the option commands,
// go on with the pane all the same.)
func Pane(session, pane string) string { return session + ":." + pane }

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
