// Package activity knows what each agent of a session is doing, from the
// agent's own hook events: Claude Code runs the commands of its settings'
// hooks at documented points of its life (a session starts, a prompt is
// submitted, a tool is used or asks permission, a turn stops, the session
// ends), with a JSON body on stdin. Each agent is started with a settings
// file of its session's (--settings) whose hooks run "mas __hook DIR
// EVENT"; that command records the event in the session's activity
// directory DIR, one small file per agent, and exits. Everything here
// reads and writes that directory; nothing here knows tmux.
package activity

import (
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Activity is what an agent is doing, as its events tell.
type Activity string

// The activities of an agent.
const (
	Starting Activity = "starting" // its pane is up, no event yet
	Waiting  Activity = "waiting"  // its turn ended, or it just started: it waits for input
	Working  Activity = "working"  // a turn is under way
	Asking   Activity = "asking"   // a permission or question dialog waits for a person
	Exited   Activity = "exited"   // the agent's program ended
	Missing  Activity = "missing"  // its pane is gone
	Unknown  Activity = "unknown"  // its program reports no events
)

// NeedsPerson tells whether an agent doing a waits for a person.
func NeedsPerson(a Activity) bool { return a == Waiting || a == Asking }

// The hook events mas asks an agent to report (Claude Code's names).
const (
	SessionStart      = "SessionStart"
	UserPromptSubmit  = "UserPromptSubmit"
	PreToolUse        = "PreToolUse"
	PermissionRequest = "PermissionRequest"
	PostToolUse       = "PostToolUse"
	Notification      = "Notification"
	Stop              = "Stop"
	SessionEnd        = "SessionEnd"
)

// Events are the events the settings file asks for, in the order of an
// agent's life.
var Events = []string{SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, Notification, Stop, SessionEnd}

// State is what an agent's events say about it: the file NN.json of the
// activity directory.
type State struct {
	Activity     Activity  `json:"activity"`
	Since        time.Time `json:"since"`   // when Activity began
	Event        string    `json:"event"`   // the last event
	EventAt      time.Time `json:"eventAt"` // when it arrived
	Conversation string    `json:"conversation,omitempty"`
	// Transcript is the file the agent keeps Conversation in, when it
	// says (Claude Code does): a conversation without it cannot be
	// continued.
	Transcript string `json:"transcript,omitempty"`
	Message    string `json:"message,omitempty"` // what the agent said it needs
	// Submitted is when a prompt was typed into the agent with Enter
	// after its last event: its turn is about to start.
	Submitted time.Time `json:"submitted,omitzero"`
}

// Event is one hook event: its name and the fields of its JSON body that
// tell what the agent is doing.
type Event struct {
	Name             string `json:"hook_event_name"`
	SessionID        string `json:"session_id"`
	TranscriptPath   string `json:"transcript_path"`   // where the agent keeps the conversation
	Source           string `json:"source"`            // SessionStart: startup, resume, clear, compact
	NotificationType string `json:"notification_type"` // Notification
	Message          string `json:"message"`           // Notification
	ToolName         string `json:"tool_name"`         // PreToolUse, PermissionRequest, PostToolUse
}

// Apply returns the state after event e arrived at t.
func Apply(s State, e Event, t time.Time) State {
	next := s.Activity
	switch e.Name {
	case SessionStart:
		if e.Source != "compact" || s.Activity == "" || s.Activity == Starting {
			next = Waiting
		}
		if e.Source == "clear" {
			s.Submitted = time.Time{}
		}
	case UserPromptSubmit:
		next = Working
		s.Submitted = time.Time{}
	case PreToolUse, PostToolUse:
		next = Working
	case PermissionRequest:
		next = Asking
		s.Message = "permission to use " + e.ToolName
		if e.ToolName == "" {
			s.Message = "permission"
		}
	case Notification:
		switch e.NotificationType {
		case "permission_prompt", "elicitation_dialog":
			next = Asking
			s.Message = e.Message
		case "idle_prompt":
			next = Waiting
		}
	case Stop:
		next = Waiting
	case SessionEnd:
		next = Exited
		s.Submitted = time.Time{}
	}
	if next != s.Activity {
		s.Activity, s.Since = next, t
		if next != Asking {
			s.Message = ""
		}
	}
	if conversationID(e.SessionID) {
		s.Conversation, s.Transcript = e.SessionID, ""
		if transcriptPath(e.TranscriptPath) {
			s.Transcript = e.TranscriptPath
		}
	}
	s.Event, s.EventAt = e.Name, t
	s.Message = printable(s.Message, maxMessage)
	return s
}

// Now is what the state says of the agent: its activity and since when. A
// prompt submitted after the last event makes a waiting agent working.
func (s State) Now() (Activity, time.Time) {
	if !s.Submitted.IsZero() && (s.Activity == Waiting || s.Activity == Starting || s.Activity == "") {
		return Working, s.Submitted
	}
	if s.Activity == "" {
		return Starting, s.Since
	}
	return s.Activity, s.Since
}

// maxMessage is how many characters of an agent's message are kept.
const maxMessage = 200

// conversationID tells whether id can be an agent's conversation id: it is
// given back to the agent on a command line (--resume ID), so only
// letters, digits, '.', '_' and '-' are taken, and not too many.
func conversationID(id string) bool {
	if id == "" || len(id) > 128 || id[0] == '-' || id[0] == '.' {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// maxPath caps the length of a transcript's path.
const maxPath = 4096

// transcriptPath tells whether p can be the path of a conversation's
// transcript: absolute, clean, and without control characters.
func transcriptPath(p string) bool {
	if len(p) > maxPath || !filepath.IsAbs(p) || filepath.Clean(p) != p || !utf8.ValidString(p) {
		return false
	}
	return !strings.ContainsFunc(p, func(r rune) bool { return unicode.IsControl(r) || unicode.In(r, unicode.Cf) })
}

// printable keeps at most max characters of s on one line: control and
// format characters (bidirectional controls among them) become spaces,
// and invalid UTF-8 the replacement character.
func printable(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range strings.ToValidUTF8(s, string(utf8.RuneError)) {
		if n == max {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf) {
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}
