package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"mas/internal/layout"
	"mas/isolated"
)

// Command is the word that runs the remote side of a request on a host:
// "mas __remote", which reads a Request on stdin and writes a Reply.
const Command = "__remote"

// Protocol is the version of Request and Reply. A host whose mas answers
// another is told to install this one.
const Protocol = 1

// Caps of what a host sends back: a reply (peek's screens are its largest)
// and what ssh or the host writes on stderr.
const (
	MaxReply  = 8 << 20
	maxStderr = 64 << 10
)

// MaxRequest caps a request: a config of 1 MiB (app's cap), in base64,
// and a command line.
const MaxRequest = 4 << 20

// Request is what the remote side of mas reads on stdin: a command line of
// mas to run there, and what it needs that is not a fixed word. Nothing
// of it is ever on the remote command line, which the host's shell reads.
type Request struct {
	Protocol int `json:"protocol"`
	// Args is the command line after "mas": ["session", "show", "--json", "1612"].
	Args []string `json:"args"`
	// Root is the host's MAS_ROOT for the command; Session its
	// MAS_SESSION_ID. Empty: unset.
	Root    string `json:"root,omitempty"`
	Session string `json:"session,omitempty"`
	// Config is the content of the --config file the command is given,
	// as bytes (base64 in JSON): the host keeps it byte for byte, where a
	// JSON string would change what is not UTF-8 and an escaping encoder
	// would write some characters in 6 bytes.
	Config []byte `json:"config,omitempty"`
}

// Reply is what the remote side writes on stdout once the command is over.
type Reply struct {
	Protocol int    `json:"protocol"`
	Version  string `json:"version"` // of the host's mas
	Exit     int    `json:"exit"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
}

// SSH is the ssh program and its options, as MAS_SSH_COMMAND gives them.
type SSH struct{ argv []string }

// ParseSSH reads MAS_SSH_COMMAND, v, as shell words, the way git reads
// GIT_SSH_COMMAND: quotes and $VARIABLES (from getenv) are expanded, a
// command or process substitution is refused. Empty is "ssh".
func ParseSSH(v string, getenv func(string) string) (SSH, error) {
	if strings.TrimSpace(v) == "" {
		return SSH{argv: []string{"ssh"}}, nil
	}
	argv, err := fields(v, getenv)
	if err != nil {
		return SSH{}, fmt.Errorf("MAS_SSH_COMMAND: %w", err)
	}
	if len(argv) == 0 {
		return SSH{argv: []string{"ssh"}}, nil
	}
	return SSH{argv: argv}, nil
}

// fields is v's words as a shell expands them, with the variables of
// getenv: shell.Fields, which also leaves a process substitution, <(…),
// to a function it does not set, and panics on one.
func fields(v string, getenv func(string) string) ([]string, error) {
	var words []*syntax.Word
	for w, err := range syntax.NewParser().WordsSeq(strings.NewReader(v)) {
		if err != nil {
			return nil, err
		}
		words = append(words, w)
	}
	cfg := &expand.Config{Env: expand.FuncEnviron(getenv), ProcSubst: func(*syntax.ProcSubst) (string, error) {
		return "", errors.New("a process substitution is refused")
	}}
	return expand.Fields(cfg, words...)
}

// Argv is the command line that runs words on host h: "--" ends ssh's
// options before the destination, so that no destination is read as one.
// tty asks for a terminal (ssh -t), for attach.
func (s SSH) Argv(h Host, tty bool, words ...string) []string {
	argv := append([]string(nil), s.argv...)
	if tty {
		argv = append(argv, "-t")
	}
	return append(append(argv, "--", h.Destination), words...)
}

// remoteWords runs mas there, with the host's root when it has one.
func remoteWords(h Host, words ...string) []string {
	if h.Root != "" {
		return append([]string{"env", "MAS_ROOT=" + h.Root, "mas"}, words...)
	}
	return append([]string{"mas"}, words...)
}

var windowForm = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`) })

// AttachArgv is the command line that attaches this terminal to session
// id of host h, showing window ("" for the session's own choice): ssh -t,
// with mas session attach <id> there. id must be a whole session id
// (what a host answered is checked here again) and window a word of
// letters, digits, '_' and '-': they are the free words of a command line
// that the host's shell reads.
func (s SSH) AttachArgv(h Host, id, window string) ([]string, error) {
	if !isolated.IsID(id) {
		return nil, &Error{Host: h.Name, Err: fmt.Errorf("session id %q is not a UUID", layout.Printable(id))}
	}
	words := []string{"session", "attach", id}
	if window != "" {
		if !windowForm().MatchString(window) {
			return nil, fmt.Errorf("window %q: give a window's name or number", window)
		}
		words = append(words, "--window", window)
	}
	return s.Argv(h, true, remoteWords(h, words...)...), nil
}

// Call runs req on host h and returns its reply once the command there is
// over, or an *Error naming h: ssh failed, the host's mas is missing or
// too old, or its reply is malformed, over MaxReply, or late. timeout
// bounds the whole call (0: ctx alone). A reply whose Exit is not 0 is
// returned with a nil error: what the command said is the caller's.
//
// stdin stays open while the command runs: when this side goes (Ctrl-C
// kills ssh), the host's mas sees it end and stops too.
func (s SSH) Call(ctx context.Context, h Host, req Request, timeout time.Duration) (Reply, error) {
	req.Protocol = Protocol
	if h.Root != "" {
		req.Root = h.Root
	}
	body, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	if len(body) >= MaxRequest {
		return Reply{}, &Error{Host: h.Name, Err: fmt.Errorf("the request is over %d MiB, more than a host reads", MaxRequest>>20)}
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	argv := s.Argv(h, false, "mas", Command)
	// Past a cap, ssh is killed: it would go on reading, and dropping,
	// what a host that never stops writes.
	sshCtx, cut := context.WithCancel(ctx)
	defer cut()
	cmd := exec.CommandContext(sshCtx, argv[0], argv[1:]...)
	// A host that holds the pipes open after ssh is killed does not
	// hold this command.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Reply{}, err
	}
	stdout := &capped{max: MaxReply, cut: cut}
	stderr := &capped{max: maxStderr, cut: cut}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return s.reply(ctx, h, stdout, stderr, fmt.Errorf("cannot run %s: %w", argv[0], err), timeout)
	}
	// The request fits the pipe's buffer, or the host reads it: a host
	// that does neither is cut by ctx, which closes the pipe.
	go func() { stdin.Write(append(body, '\n')) }()
	err = cmd.Wait()
	return s.reply(ctx, h, stdout, stderr, err, timeout)
}

// reply reads what host h answered: the Reply on stdout, or why there is
// none.
func (s SSH) reply(ctx context.Context, h Host, stdout, stderr *capped, waitErr error, timeout time.Duration) (Reply, error) {
	fail := func(err error) (Reply, error) { return Reply{}, &Error{Host: h.Name, Err: err} }
	switch {
	case stdout.over:
		return fail(fmt.Errorf("it answered more than %d MiB: not a reply of mas", MaxReply>>20))
	case stderr.over:
		return fail(fmt.Errorf("it wrote more than %d KiB on stderr: not a reply of mas", maxStderr>>10))
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fail(fmt.Errorf("no answer within %v", timeout))
	case ctx.Err() != nil:
		return fail(fmt.Errorf("interrupted: %w", context.Cause(ctx)))
	}
	var exit *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exit) {
		return fail(waitErr)
	}
	code := 0
	if exit != nil {
		code = exit.ExitCode()
	}
	var r Reply
	cut := bytes.HasPrefix(stdout.buf.Bytes(), []byte(`{"protocol":`))
	dec := json.NewDecoder(&stdout.buf)
	err := dec.Decode(&r)
	switch {
	case err != nil && cut:
		return fail(fmt.Errorf("its reply was cut short (exit %d): the connection or its mas ended mid-answer", code))
	case code == 255:
		// ssh's own failure, or the command there ended by a signal.
		return fail(fmt.Errorf("ssh failed: %s", stderr.lastLine("exit status 255, nothing said: the connection failed, or the command there was killed")))
	case code == 127 && stdout.buf.Len() == 0:
		return fail(&NoMasError{Stderr: stderr.lastLine("")})
	case (err != nil || r.Protocol == 0) && code > 128:
		return fail(fmt.Errorf("its mas ended before it answered (exit %d)", code))
	case err != nil || r.Protocol == 0:
		return fail(&OldMasError{Stderr: stderr.lastLine(""), Code: code})
	}
	// The version is shown as it came (host list, errors): made printable
	// and cut here, once, so that no escape sequence of the host, nor
	// megabytes of it, reach a terminal.
	r.Version = Cut(layout.Printable(r.Version), maxVersion)
	if r.Protocol != Protocol {
		return fail(&OldMasError{Version: r.Version, Protocol: r.Protocol})
	}
	if dec.More() {
		return fail(errors.New("its reply is followed by more output: not a reply of mas"))
	}
	return r, nil
}

// Error is a host that could not be reached or answered wrong.
type Error struct {
	Host string
	Err  error
}

func (e *Error) Error() string { return "host " + e.Host + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// Install says how to put mas on a host, for the errors that find none
// there or one too old.
const Install = "install this version of mas there (make install, or copy the binary) in a directory on the PATH that ssh commands get, such as /usr/local/bin"

// NoMasError is a host where no mas runs: the shell there found none.
type NoMasError struct{ Stderr string }

func (e *NoMasError) Error() string {
	msg := "mas is not installed there, or not on the PATH of its ssh sessions"
	if e.Stderr != "" {
		msg += " (" + e.Stderr + ")"
	}
	return msg + ": " + Install
}

// OldMasError is a host whose mas does not answer requests of Protocol:
// one from before hosts, or from another version of them.
type OldMasError struct {
	Version  string
	Protocol int
	Stderr   string
	Code     int
}

func (e *OldMasError) Error() string {
	var msg string
	switch {
	case e.Protocol != 0:
		msg = fmt.Sprintf("its mas (version %s) speaks protocol %d, this one %d", e.Version, e.Protocol, Protocol)
	case e.Stderr != "":
		msg = fmt.Sprintf("its mas is too old, or not mas: it answered no reply (exit %d: %s)", e.Code, e.Stderr)
	default:
		msg = fmt.Sprintf("its mas is too old, or not mas: it answered no reply (exit %d)", e.Code)
	}
	return msg + ": " + Install
}

// maxVersion caps the version a host claims.
const maxVersion = 64

// Cut is s cut to at most n bytes, at the edge of a character, and "…"
// after it when it was cut: a line that a host wrote, for an error or a
// column.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// capped keeps what is written to it up to max bytes, and whether more
// came, which it calls cut for.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
	cut  func()
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:max(room, 0)])
		c.over = true
		c.cut()
		return 0, errors.New("over the cap")
	}
	return c.buf.Write(p)
}

// lastLine is the last line of text written, printable, or or when
// nothing was: the reason ssh gives for a failure comes last.
func (c *capped) lastLine(or string) string {
	lines := strings.Split(strings.TrimSpace(c.buf.String()), "\n")
	last := Cut(layout.Printable(strings.TrimSpace(lines[len(lines)-1])), 300)
	if last == "" {
		return or
	}
	return last
}
