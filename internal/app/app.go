// Package app holds the verbs that the command line and the HTTP API share:
// select a session, start one in either mode, describe, send to, stop,
// resume and remove it, send a config's prompts once the agents are ready,
// and supervise the root's sessions for its background server. Everything
// it reads from the outside world is passed in: the environment and the
// working and binary directories (Env), tmux (Tmux, AnyServer), the time
// it records (Now) and the root's background server (Daemon); what people
// read goes to Report. The files it reads and writes are the root's,
// under the directory those name.
package app

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"mas/internal/report"
	"mas/isolated"
	"mas/tmux"
)

// Env is the part of the outside world the verbs read.
type Env struct {
	Getenv  func(string) string
	Environ func() []string // the whole environment, for the server start launches
	Cwd     string          // working directory
	ExeDir  string          // directory of the binary, links resolved
	Exe     string          // path of the binary, to launch "mas serve"
}

// App runs the verbs against one tmux client.
type App struct {
	Env
	// Tmux reaches the tmux server the sessions live on.
	Tmux tmux.Client
	// AnyServer reaches no server of its own: each call names a socket
	// with -S (the background server's idle check asks every server).
	AnyServer tmux.Client
	Now       func() time.Time
	// Report tells people what happens: [INFO] lines, warnings, traces.
	Report *report.Reporter
	// Daemon is the root's background HTTP server; nil: none is started,
	// stopped or found.
	Daemon Daemon
	// Hosts keeps the hosts' session lists for the HTTP API; nil: the
	// API lists this machine's sessions alone (no mas serve runs here).
	Hosts *HostList

	// sessionFileWarning makes the warning of an untrusted .mas_session
	// one per process, however often sessions are selected.
	sessionFileWarning sync.Once
	// lists is the root's list cache (listCache); watchLists tells that
	// it watches the sessions' files (WatchSessions).
	listsMu    sync.Mutex
	lists      *isolated.ListCache
	watchLists bool
}

// WatchSessions makes the root's list cache tell what changed between
// listings through inotify (isolated.ListCache.Watch), for a process that
// lists every few seconds (mas serve).
func (a *App) WatchSessions() {
	a.listsMu.Lock()
	defer a.listsMu.Unlock()
	a.watchLists = true
	if a.lists != nil {
		a.lists.Watch()
	}
}

// New returns an App whose tmux calls run the real tmux, configured from
// the environment (MAS_TMUX_SOCKET), traced when rep debugs.
// tmux runs without mas's own variables (see privateVars).
func New(e Env, rep *report.Reporter) *App {
	r := tmux.NewRunner(e.Getenv, rep)
	r.Env = tmuxEnviron(e.Environ)
	bare := *r
	bare.Socket = ""
	return &App{Env: e, Tmux: r, AnyServer: &bare, Now: time.Now, Report: rep}
}

// UsageError is a command line (or an environment) the program cannot
// accept; the command line exits 2 for it. Err, when set, is the error it
// was made from.
type UsageError struct {
	Msg string
	Err error
	// Help is the command line that shows the help of the command that
	// was misused ("mas send --help"); main prints it after the message.
	Help string
}

func (e *UsageError) Error() string { return e.Msg }

func (e *UsageError) Unwrap() error { return e.Err }

// malformedAsUsage makes a session id that cannot name one session by its
// form — malformed (isolated.ErrMalformedID), or a prefix of several ids
// (*isolated.AmbiguousError) — a usage error whose message starts with
// prefix; other errors pass.
func malformedAsUsage(err error, prefix string) error {
	if errors.Is(err, isolated.ErrMalformedID) || isAmbiguous(err) {
		return &UsageError{Msg: prefix + err.Error(), Err: err}
	}
	return err
}

// isAmbiguous tells whether err is a session prefix that begins several
// ids (*isolated.AmbiguousError).
func isAmbiguous(err error) bool {
	var ambiguous *isolated.AmbiguousError
	return errors.As(err, &ambiguous)
}

// Usagef formats a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// AgentCommand is the program run in each pane.
func (e Env) AgentCommand() string {
	if c := e.Getenv("MAS_AGENT_COMMAND"); c != "" {
		return c
	}
	return "clauded"
}

// UserShell is the user's login shell, which each pane runs first.
func (e Env) UserShell() string {
	if s := e.Getenv("SHELL"); s != "" {
		return s
	}
	return "/bin/sh"
}

// InsideTmux tells whether this process runs in a tmux client.
func (e Env) InsideTmux() bool { return e.Getenv("TMUX") != "" }

// ReadyTimeout bounds the wait for agents before their prompts are sent:
// MAS_READY_TIMEOUT seconds, 60 when it is unset or empty. Anything but a
// whole number of seconds above 0 is a usage error, never the default in
// silence (issue 30).
func (e Env) ReadyTimeout() (time.Duration, error) {
	v := e.Getenv("MAS_READY_TIMEOUT")
	if v == "" {
		return 60 * time.Second, nil
	}
	s, err := strconv.ParseInt(v, 10, 64)
	if err != nil || s <= 0 || s > int64(math.MaxInt64/time.Second) {
		return 0, Usagef("MAS_READY_TIMEOUT must be a whole number of seconds above 0, not %q", v)
	}
	return time.Duration(s) * time.Second, nil
}

// isOn reports whether a yes/no environment variable says yes.
func isOn(v string) bool {
	switch strings.ToLower(v) {
	case "1", "on", "yes", "true":
		return true
	}
	return false
}

// privateVars are mas's own variables that no tmux process gets. A tmux
// server keeps the environment of the client that started it as its
// global environment, and a new session takes the update-environment
// variables of the client that made it: both reach every pane, where
// agents run any code and read untrusted text. The API token is a secret,
// and so may the notify command be (a webhook's URL); the descriptors
// start hands its server are that server's alone.
var privateVars = []string{"MAS_API_TOKEN", NotifyVar, ListenFDVar, ReadyFDVar}

// tmuxEnviron is the environment tmux runs in: environ without
// privateVars. nil, when environ is unknown, lets tmux inherit this
// process's.
func tmuxEnviron(environ func() []string) []string {
	if environ == nil {
		return nil
	}
	all := environ()
	env := make([]string, 0, len(all))
	for _, kv := range all {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(privateVars, name) {
			env = append(env, kv)
		}
	}
	return env
}
