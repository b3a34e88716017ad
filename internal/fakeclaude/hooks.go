package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A result is what one hook command did.
type result struct {
	exit     int // -1 when it was killed
	stdout   string
	stderr   string
	timedOut bool
}

// An outcome is what the hooks of one event decided together.
type outcome struct {
	blocked bool   // some hook exited 2
	reason  string // the stderr of the hooks that blocked
	context string // the stdout of the hooks that exited 0
}

// fire fires event: it runs every matching hook at once with the
// event's JSON on stdin, waits for all of them, logs the event, shows
// the errors of those that failed without blocking and returns what
// they decided.
// Exit code 2 blocks only the events that can be blocked
// (UserPromptSubmit, PreToolUse); elsewhere it is an error like any
// other.
func (s *session) fire(event string, fields map[string]any) outcome {
	input := map[string]any{
		"session_id":      s.id,
		"transcript_path": s.transcript,
		"cwd":             s.project,
		"permission_mode": s.permissionMode,
		"hook_event_name": event,
	}
	for k, v := range fields {
		input[k] = v
	}
	stdin := marshal(input)

	value, _ := fields[matchFields[event]].(string)
	matched := s.hooks.matching(event, value)
	results := make([]result, len(matched))
	var wg sync.WaitGroup
	for i, h := range matched {
		wg.Go(func() {
			start := time.Now()
			results[i] = s.run(h, stdin)
			s.log(map[string]any{"event": event, "command": h.command, "exit": results[i].exit,
				"ms": float64(time.Since(start)) / float64(time.Millisecond)})
		})
	}
	wg.Wait()
	s.log(map[string]any{"event": event, "fired": true})

	var o outcome
	var reasons, contexts []string
	blocking := event == "UserPromptSubmit" || event == "PreToolUse"
	for i, r := range results {
		switch {
		case r.exit == 0:
			if out := strings.TrimSpace(r.stdout); out != "" {
				contexts = append(contexts, out)
			}
		case r.exit == 2 && blocking:
			o.blocked = true
			reasons = append(reasons, strings.TrimSpace(r.stderr))
		case r.timedOut:
			s.screen.println(fmt.Sprintf("%s hook error: timed out after %v", event, matched[i].timeout))
		default:
			line, _, _ := strings.Cut(strings.TrimSpace(r.stderr), "\n")
			s.screen.println(fmt.Sprintf("%s hook error: %s", event, line))
		}
	}
	o.reason = strings.Join(reasons, "\n")
	o.context = strings.Join(contexts, "\n")
	return o
}

// run runs one hook command with /bin/sh in the project directory, stdin
// on its input, and kills its process group when its time is up. Output
// that a background process keeps open is not waited for more than a
// second after the command exits.
func (s *session) run(h hook, stdin []byte) result {
	ctx, cancel := context.WithTimeout(context.Background(), h.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", h.command)
	cmd.Dir = s.project
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+s.project)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	r := result{exit: 0, stdout: stdout.String(), stderr: stderr.String()}
	if err != nil {
		r.exit = -1
		if cmd.ProcessState != nil {
			r.exit = cmd.ProcessState.ExitCode()
		}
		if r.stderr == "" {
			r.stderr = err.Error()
		}
	}
	r.timedOut = ctx.Err() != nil
	return r
}

// log appends one JSON line to $FAKECLAUDE_LOG, when it is set, opening
// the file for each line so that lines written at once stay whole.
func (s *session) log(entry map[string]any) {
	if s.logPath == "" {
		return
	}
	if err := appendLine(s.logPath, marshal(entry)); err != nil {
		s.screen.println("fake claude: log: " + err.Error())
	}
}

// marshal encodes v as JSON on one line, as JavaScript's JSON.stringify
// does: "<", ">" and "&" as they are. v holds only strings, numbers,
// booleans and maps of them, which always encode.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
