// Command fakeclaude is a test stand-in for Claude Code's hooks protocol:
// built by tests as "clauded" and run in real tmux panes where mas
// expects its agents, it fires the documented hook events, reads the
// documented settings sources and gives each hook command its JSON on
// stdin, as Claude Code's hooks reference describes.
//
// The facts of the reference it follows: the settings sources
// ~/.claude/settings.json, .claude/settings.json and
// .claude/settings.local.json of the project, then --settings (JSON, or
// a file), all merged, and disableAllHooks in any of them turns every
// hook off; "hooks" maps an event to matcher groups of command hooks
// with a timeout in seconds (60 by default); a matcher is a regular
// expression on the tool name (PreToolUse, PermissionRequest,
// PostToolUse), the notification type (Notification), the source
// (SessionStart) or the reason (SessionEnd), and "", "*" or none match
// all; identical commands of an event run once; the hooks of an event
// run in parallel, each as /bin/sh -c in the project directory with
// CLAUDE_PROJECT_DIR set, and are killed when their time is up; the
// JSON on stdin has session_id, transcript_path, cwd, permission_mode
// and hook_event_name, and the fields of the event; exit code 2 blocks
// a prompt (UserPromptSubmit) or a tool call (PreToolUse) and shows
// stderr; the stdout of a UserPromptSubmit or SessionStart hook that
// exits 0 is added as context; any other failure is shown and blocks
// nothing; Stop is not fired when the user denies a permission. It does
// not read the JSON a hook may print on stdout, and runs only hooks of
// type "command".
//
// What a turn does is chosen by the prompt: "work CHANNEL" is a Bash
// tool call that lasts until "tmux wait-for -S CHANNEL"; "ask TOOL" asks
// for permission to use TOOL in a dialog answered by one key (1, y or
// Enter for yes; 3, n or Escape for no; a paste answers with its first
// character); "/exit" ends the session, as Ctrl-D on an empty line does;
// anything else gets the reply "ok: <prompt>".
//
// $FAKECLAUDE_LOG names a file that gets a JSON line for each hook
// command run ({"event","command","exit","ms"}) and one for each event
// fired ({"event","fired":true}), written when its hooks have all
// finished. $FAKECLAUDE_IDLE_SECONDS (default 60) is how long the prompt
// waits for a key before the idle notification.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"
	"golang.org/x/term"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// options are the command line flags the fake knows; the others are
// ignored.
type options struct {
	model    string
	settings string // JSON, or the path of a file
	resume   string // a session id
	bypass   bool   // --dangerously-skip-permissions
}

// parseArgs reads "--flag value" and "--flag=value".
func parseArgs(args []string) (options, error) {
	o := options{model: "default"}
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		var dst *string
		switch name {
		case "--model":
			dst = &o.model
		case "--settings":
			dst = &o.settings
		case "--resume", "-r":
			dst = &o.resume
		case "--dangerously-skip-permissions":
			o.bypass = true
			continue
		default:
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return o, fmt.Errorf("option '%s' argument missing", name)
			}
			i++
			value = args[i]
		}
		*dst = value
	}
	return o, nil
}

// run is the whole program; it returns the exit code.
func run(args []string) int {
	opts, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		return 1
	}
	home, err := os.UserHomeDir()
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		return 1
	}
	project, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		return 1
	}
	idle := 60 * time.Second
	if v := os.Getenv("FAKECLAUDE_IDLE_SECONDS"); v != "" {
		secs, err := strconv.ParseFloat(v, 64)
		if err != nil || secs <= 0 {
			fmt.Fprintf(os.Stderr, "error: FAKECLAUDE_IDLE_SECONDS=%q is not a number of seconds\n", v)
			return 1
		}
		idle = time.Duration(secs * float64(time.Second))
	}
	hooks, err := loadSettings(home, project, opts.settings, func(msg string) { fmt.Fprintln(os.Stderr, msg) })
	if err != nil {
		fmt.Fprintf(os.Stderr, "Settings error: %v\n", err)
		return 1
	}

	s := &session{
		id:             uuid.NewString(),
		model:          opts.model,
		project:        project,
		permissionMode: "default",
		hooks:          hooks,
		logPath:        os.Getenv("FAKECLAUDE_LOG"),
		idleAfter:      idle,
		screen:         &screen{w: os.Stdout},
		dialogs:        make(chan dialog),
		done:           make(chan bool),
	}
	if opts.bypass {
		s.permissionMode = "bypassPermissions"
	}
	source, messages := "startup", 0
	if opts.resume != "" {
		n, err := countMessages(home, project, opts.resume)
		if err != nil {
			fmt.Fprintf(os.Stderr, "No conversation found with session ID: %s\n", opts.resume)
			return 1
		}
		s.id, source, messages = opts.resume, "resume", n
	}
	s.transcript = transcriptPath(home, project, s.id)

	restore := takeTerminal(s.screen)
	defer restore()
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGHUP, syscall.SIGTERM)
	go func() {
		sig := <-signals
		restore()
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()

	s.screen.println(fmt.Sprintf("fake claude: model %s, session %s", s.model, s.id))
	if source == "resume" {
		s.screen.println(fmt.Sprintf("Resumed conversation %s (%d messages)", s.id, messages))
	}
	if o := s.fire("SessionStart", map[string]any{"source": source, "model": s.model}); o.context != "" {
		s.screen.println("context: " + o.context)
	}
	return s.loop(readKeys(os.Stdin))
}

// takeTerminal puts the terminal on stdin in raw mode, when it is one,
// and turns bracketed paste on. The function it returns undoes both and
// may be called more than once.
func takeTerminal(sc *screen) (restore func()) {
	fd := int(os.Stdin.Fd())
	var old *term.State
	if term.IsTerminal(fd) {
		var err error
		if old, err = term.MakeRaw(fd); err != nil {
			fmt.Fprintf(os.Stderr, "fake claude: %v\n", err)
		}
	}
	sc.raw("\x1b[?2004h")
	var once sync.Once
	return func() {
		once.Do(func() {
			sc.raw("\x1b[?2004l")
			if old != nil {
				term.Restore(fd, old)
			}
		})
	}
}

// readKeys reads stdin in the background and sends its keys. When it
// gives no more, it sends keyHangup if it is a terminal, which is then
// gone, and keyClosed if not.
func readKeys(f *os.File) <-chan key {
	keys := make(chan key)
	last := key{kind: keyClosed}
	if term.IsTerminal(int(f.Fd())) {
		last = key{kind: keyHangup}
	}
	go func() {
		var kr keyReader
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			for _, k := range kr.feed(buf[:n]) {
				keys <- k
			}
			if err != nil {
				keys <- last
				return
			}
		}
	}()
	return keys
}
