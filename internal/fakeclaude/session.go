package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
)

// A session is one run of the fake: who it is, where it writes and what
// its prompt is doing.
type session struct {
	id             string
	model          string
	project        string // the working directory at start
	transcript     string
	permissionMode string
	hooks          hooks
	logPath        string        // $FAKECLAUDE_LOG, "" for none
	idleAfter      time.Duration // $FAKECLAUDE_IDLE_SECONDS
	screen         *screen

	// Between the prompt (the loop) and the turn under way.
	dialogs chan dialog // a turn asks the loop to open a dialog
	done    chan bool   // a turn ended; true when the session must end
}

// A dialog asks the user whether a tool may run; the loop sends the
// answer, true for yes, on answer.
type dialog struct {
	tool   string
	answer chan<- bool
}

// transcriptPath is where Claude Code keeps a session's conversation:
// under ~/.claude/projects, in a directory named after the project
// directory with each "/" as "-".
func transcriptPath(home, project, id string) string {
	return filepath.Join(home, ".claude", "projects", strings.ReplaceAll(project, "/", "-"), id+".jsonl")
}

// turn answers one prompt, firing the hooks Claude Code fires for it. It
// returns true when the prompt ends the session.
func (s *session) turn(prompt string) bool {
	if prompt == "/exit" {
		s.fire("SessionEnd", map[string]any{"reason": "prompt_input_exit"})
		return true
	}
	o := s.fire("UserPromptSubmit", map[string]any{"prompt": prompt})
	if o.blocked {
		s.screen.println("UserPromptSubmit operation blocked by hook:\n" + o.reason)
		return false
	}
	if o.context != "" {
		s.screen.println("context: " + o.context)
	}
	s.record("user", prompt)

	var reply string
	verb, arg, _ := strings.Cut(prompt, " ")
	oneWord := arg != "" && !strings.ContainsAny(arg, " \t\n")
	switch {
	case verb == "work" && oneWord:
		reply = s.work(arg)
	case verb == "ask" && oneWord:
		var allowed bool
		if reply, allowed = s.ask(arg); !allowed {
			return false
		}
	default:
		reply = "ok: " + prompt
	}
	first, _, _ := strings.Cut(reply, "\n")
	s.screen.println(first)
	s.record("assistant", reply)
	s.fire("Stop", map[string]any{"stop_hook_active": false})
	return false
}

// work runs the Bash tool on "work CHANNEL", which waits for the tmux
// channel: tmux wait-for CHANNEL, on the server of the pane ($TMUX).
func (s *session) work(channel string) string {
	input := map[string]any{"command": "work " + channel}
	id, ok := s.preToolUse("Bash", input)
	if !ok {
		return "blocked: Bash"
	}
	out, err := exec.Command("tmux", "wait-for", channel).CombinedOutput()
	response := toolResponse("done: " + channel)
	reply := "done: " + channel
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = err.Error()
		}
		response["stdout"], response["stderr"] = "", msg
		s.screen.println("  Error: " + msg)
		reply = "failed: " + channel
	}
	s.fire("PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": input, "tool_response": response, "tool_use_id": id})
	return reply
}

// ask runs a tool that needs permission: it opens a dialog and fires
// PermissionRequest and Notification, then waits for the answer. It
// returns the reply and false when the user said no, which interrupts
// the turn.
func (s *session) ask(tool string) (string, bool) {
	input := map[string]any{"command": "ask"}
	id, ok := s.preToolUse(tool, input)
	if !ok {
		return "blocked: " + tool, true
	}
	answer := make(chan bool, 1)
	s.dialogs <- dialog{tool: tool, answer: answer}
	s.fire("PermissionRequest", map[string]any{"tool_name": tool, "tool_input": input})
	s.fire("Notification", map[string]any{"message": "Claude needs your permission to use " + tool, "notification_type": "permission_prompt"})
	if !<-answer {
		s.screen.println("Interrupted · What should Claude do instead?")
		s.record("user", "[Request interrupted by user for tool use]")
		return "", false
	}
	s.fire("PostToolUse", map[string]any{"tool_name": tool, "tool_input": input, "tool_response": toolResponse("allowed"), "tool_use_id": id})
	return "allowed " + tool, true
}

// preToolUse fires PreToolUse for a tool and shows the call, or why a
// hook blocked it. It returns the call's id and whether it may run.
func (s *session) preToolUse(tool string, input map[string]any) (string, bool) {
	id := "toolu_" + strings.ToUpper(rand.Text()[:24])
	o := s.fire("PreToolUse", map[string]any{"tool_name": tool, "tool_input": input, "tool_use_id": id})
	if o.blocked {
		s.screen.println(fmt.Sprintf("PreToolUse:%s hook blocked it: %s", tool, o.reason))
		return id, false
	}
	s.screen.println(fmt.Sprintf("● %s(%s)", tool, input["command"]))
	return id, true
}

// toolResponse is what the Bash tool returns, as Claude Code reports it.
func toolResponse(stdout string) map[string]any {
	return map[string]any{"stdout": stdout, "stderr": "", "interrupted": false, "isImage": false}
}

// record appends a message to the transcript, creating its directory.
func (s *session) record(role, content string) {
	line := marshal(map[string]any{
		"type":      role,
		"sessionId": s.id,
		"message":   map[string]any{"role": role, "content": content},
	})
	err := os.MkdirAll(filepath.Dir(s.transcript), 0o700)
	if err == nil {
		err = appendLine(s.transcript, line)
	}
	if err != nil {
		s.screen.println("fake claude: transcript: " + err.Error())
	}
}

// appendLine appends line and a line feed to the file at path, in one
// write, creating the file.
func appendLine(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// countMessages is the number of messages in the transcript of session
// id, an error when there is none. Only a UUID names a session.
func countMessages(home, project, id string) (int, error) {
	if _, err := uuid.Parse(id); err != nil {
		return 0, err
	}
	b, err := os.ReadFile(transcriptPath(home, project, id))
	if err != nil {
		return 0, err
	}
	return bytes.Count(b, []byte("\n")), nil
}
