package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"mas/envfile"
	"mas/internal/app"
	"mas/internal/layout"
	"mas/internal/remote"
	"mas/isolated"
)

// hostRef reads ref as NAME:<id or prefix>, a session of host NAME: ok
// is false for a reference with no ':', which is this machine's. A name
// that is no host of the root, or an empty id, is an error: a session
// never lands on another machine than the one named.
func (cl *CommandLine) hostRef(ref string) (h remote.Host, id string, ok bool, err error) {
	name, id, ok := strings.Cut(ref, ":")
	if !ok {
		return remote.Host{}, "", false, nil
	}
	if id == "" {
		return remote.Host{}, "", true, app.Usagef("%q names no session: give NAME:<id or prefix>", ref)
	}
	h, err = cl.host(name)
	return h, id, true, err
}

// forwarded is a command line that runs on a host: where, what, and what
// this side does with it.
type forwarded struct {
	host remote.Host
	req  remote.Request
	// id is the session reference on the host, as the user gave it (a
	// prefix, or a whole id).
	id string
}

// forward runs the command line r on the host its session reference
// names (NAME:<id> as a positional, --session NAME:<id> or
// MAS_SESSION_ID=NAME:<id>) or its --host names (session create), and
// tells whether it did; a local command line is left to the caller.
func (cl *CommandLine) forward(ctx context.Context, r *reading) (bool, error) {
	if r.cmd == cmdEnv { // env prints this side's variables (envVars)
		return false, nil
	}
	if r.cmd == cmdSessionCreate || r.cmd == cmdStart {
		name, ok := flagValue(r.flags, "--host")
		if !ok {
			err := cl.notAHostsID(r)
			return err != nil, err
		}
		h, err := cl.createHost(ctx, name)
		if h == nil || err != nil {
			return err != nil, err // nil: this machine, by the local create
		}
		return true, cl.createOnHost(ctx, r, *h)
	}
	f, ok, err := cl.forwardOf(r)
	if !ok || err != nil {
		return ok, err
	}
	switch r.cmd {
	case cmdAttach, cmdSessionAttach:
		return true, cl.attachOnHost(ctx, f, r)
	case cmdStop:
		err := cl.confirmStop(r, &f)
		if errors.Is(err, errCancelled) {
			return true, nil
		}
		if err != nil {
			return true, err
		}
	}
	return true, cl.runOnHost(ctx, f, r.cmd)
}

// notAHostsID refuses a create here whose MAS_SESSION_ID (the id it
// would give the new session) names a session of a host of the root: it
// would land on this machine. Any other id with a ':' is the create's
// own malformed id.
func (cl *CommandLine) notAHostsID(r *reading) error {
	id := cl.io.Getenv("MAS_SESSION_ID")
	if name, _, ok := strings.Cut(id, ":"); ok && cl.isHost(name) {
		return app.Usagef("%s: MAS_SESSION_ID=%s names a session of host %s, not one to create here: unset it, or create a session there with mas session create --host %s",
			r.path(), id, name, name)
	}
	return nil
}

// forwardOf is the request that runs r on the host its session
// references name: ok is false when none names a host.
func (cl *CommandLine) forwardOf(r *reading) (forwarded, bool, error) {
	c := refCollector{cl: cl, path: r.path()}
	pos := slices.Clone(r.pos)
	for i, w := range pos {
		if a, ok := r.cmd.argAt(i); ok && isSessionKind(a.kind) {
			id, _, err := c.take(w)
			if err != nil {
				return c.f, true, err
			}
			pos[i] = id
		}
	}
	flags, err := c.takeSession(r)
	switch {
	case err != nil:
		return c.f, true, err
	case len(c.refs) == 0:
		return c.f, false, nil
	case len(c.refs) < c.seen:
		return c.f, true, app.Usagef("%s: %s is a session of host %s: name one machine's sessions at a time", c.path, c.refs[0], c.f.host.Name)
	}
	// As the run reads them: the first literal positionals (send's
	// target and text) first, whatever they look like, then the flags,
	// then the other positionals after a "--".
	lit := min(r.cmd.literal, len(pos))
	c.f.req.Args = slices.Concat(r.names, pos[:lit], flags, []string{"--"}, pos[lit:])
	// JSON would carry a word that is not UTF-8 changed (U+FFFD): the
	// host would act on another text than the one given.
	for _, w := range append(c.f.req.Args, c.f.req.Session) {
		if !utf8.ValidString(w) {
			return c.f, true, app.Usagef("%s: %q is not valid UTF-8: it cannot travel to host %s", c.path, w, c.f.host.Name)
		}
	}
	return c.f, true, nil
}

// refCollector reads the session references of a command line, one at a
// time, into the request that runs it on their host.
type refCollector struct {
	cl   *CommandLine
	path string // the command's, for errors
	f    forwarded
	refs []string // the references that name a host
	seen int      // the references given
}

// take reads ref and returns what the host is to be given in its place:
// the id without the host's name, or ref itself when it names none.
func (c *refCollector) take(ref string) (string, bool, error) {
	if ref != "" {
		c.seen++
	}
	h, id, ok, err := c.cl.hostRef(ref)
	if !ok || err != nil {
		return ref, ok, err
	}
	if len(c.refs) > 0 && h.Name != c.f.host.Name {
		return "", true, app.Usagef("%s: %s and %s are sessions of two hosts: name one host's sessions at a time", c.path, c.refs[0], ref)
	}
	c.refs, c.f.host, c.f.id = append(c.refs, ref), h, id
	return id, true, nil
}

// takeSession reads the session that a command with --session acts on
// (the flag, else MAS_SESSION_ID) and returns r's flags, without
// --session when it names a host's: the host's mas gets the id as its
// MAS_SESSION_ID.
func (c *refCollector) takeSession(r *reading) ([]string, error) {
	if _, ok := r.cmd.lookupFlag(sessionFlag.long); !ok {
		return r.flags, nil
	}
	ref, given := flagValue(r.flags, "--"+sessionFlag.long)
	if !given {
		ref = c.cl.io.Getenv("MAS_SESSION_ID")
	}
	id, onHost, err := c.take(ref)
	if err != nil || !onHost {
		return r.flags, err
	}
	c.f.req.Session = id
	return withoutFlag(r.flags, "--"+sessionFlag.long), nil
}

// isSessionKind tells whether a positional of kind names a session.
func isSessionKind(kind argKind) bool {
	return kind == sessionArg || kind == activeSessionArg || kind == stoppedSessionArg
}

// switchOn tells whether the switch long ("--json") is on in flags as
// read: --json or --json=true.
func switchOn(flags []string, long string) bool {
	return slices.Contains(flags, long) || slices.Contains(flags, long+"=true")
}

// flagValue is the value of the flag long ("--host") in flags as read
// (each flag as --long [value]), and whether it was given.
func flagValue(flags []string, long string) (string, bool) {
	i := slices.Index(flags, long)
	if i < 0 || i+1 >= len(flags) {
		return "", false
	}
	return flags[i+1], true
}

// withoutFlag is flags without the flag long and its value.
func withoutFlag(flags []string, long string) []string {
	if i := slices.Index(flags, long); i >= 0 && i+1 < len(flags) {
		return slices.Delete(slices.Clone(flags), i, i+2)
	}
	return flags
}

// timeoutOf is how long the command cmd may take on a host: wait waits
// as long as it was told (its own --timeout), create and resume start
// agents, the others answer at once.
func (cl *CommandLine) timeoutOf(cmd *command) (time.Duration, error) {
	switch cmd {
	case cmdWait:
		return 0, nil
	case cmdSessionCreate, cmdSessionResume:
		ready, err := cl.app.ReadyTimeout()
		return ready + app.CreateAllowance, err
	}
	return cl.hostTimeout()
}

// runOnHost runs f on its host and writes what the command printed there:
// stdout as printable lines (JSON checked to be JSON), stderr too. A
// command that failed there is an error naming the host.
func (cl *CommandLine) runOnHost(ctx context.Context, f forwarded, cmd *command) error {
	timeout, err := cl.timeoutOf(cmd)
	if err != nil {
		return err
	}
	r, err := cl.callHost(ctx, f.host, f.req, timeout)
	if r.Protocol == 0 {
		return err // no reply at all: nothing to show
	}
	// A failure's message holds every line when none is an error of
	// mas's (remoteMessage): they are shown once.
	if err == nil || app.HasErrorLines(r.Stderr) {
		cl.relay(cl.io.Stderr.Write, hostHints(r.Stderr, f.host.Name), err != nil)
	}
	if err != nil {
		return err
	}
	if switchOn(f.req.Args, "--json") {
		return cl.relayJSON(f.host, r.Stdout)
	}
	cl.relay(cl.io.Stdout.Write, r.Stdout, false)
	return nil
}

// relay writes text a host printed, each line made printable; failed
// leaves out the "mas: " lines of a failed command's stderr, which its
// error holds (remoteMessage).
func (cl *CommandLine) relay(write func([]byte) (int, error), text string, failed bool) {
	if text == "" {
		return
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if failed && strings.HasPrefix(l, "mas: ") {
			continue
		}
		nl := strings.HasSuffix(l, "\n")
		b.WriteString(layout.Printable(strings.TrimSuffix(l, "\n")))
		if nl {
			b.WriteString("\n")
		}
	}
	write([]byte(b.String()))
}

// relayJSON writes the JSON a host printed, once it is checked to be one
// JSON value, indented as mas indents.
func (cl *CommandLine) relayJSON(h remote.Host, text string) error {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return &remote.Error{Host: h.Name, Err: fmt.Errorf("its --json output is not JSON: %w", err)}
	}
	return cl.writeJSON(v)
}

// confirmStop asks, on this side, the question stop asks before it stops
// a session (the host's mas has no one to ask), and makes the request
// --force once it is answered yes.
func (cl *CommandLine) confirmStop(r *reading, f *forwarded) error {
	if switchOn(r.flags, "--force") {
		return nil
	}
	ref := f.host.Name + ":" + f.id
	answer, err := cl.ask(fmt.Sprintf("Stop session '%s'? (y/N): ", ref))
	if errors.Is(err, errNoAnswer) {
		return fmt.Errorf("stop: not stopping %s without confirmation: %w (answer y, or use --force)", ref, err)
	}
	if err != nil {
		return fmt.Errorf("stop: %w", err)
	}
	if !isYes(answer) {
		cl.stderr.Infof("Cancelled")
		return errCancelled
	}
	f.req.Args = slices.Insert(f.req.Args, len(r.names), "--force")
	return nil
}

// errCancelled is a question answered no: nothing is done, and nothing
// failed.
var errCancelled = errors.New("cancelled")

// sessionOnHost is the whole id of the session that ref (a prefix, or the
// id) names on host h, as its mas answers session show --json, checked
// to be a UUID.
func (cl *CommandLine) sessionOnHost(ctx context.Context, h remote.Host, ref string) (string, error) {
	timeout, err := cl.hostTimeout()
	if err != nil {
		return "", err
	}
	r, err := cl.callHost(ctx, h, remote.Request{Args: []string{"session", "show", "--json", "--", ref}}, timeout)
	if err != nil {
		return "", err
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &s); err != nil {
		return "", &remote.Error{Host: h.Name, Err: fmt.Errorf("its session show --json is not JSON: %w", err)}
	}
	if !isolated.IsID(s.SessionID) {
		return "", &remote.Error{Host: h.Name, Err: fmt.Errorf("it named session %q, which is no session id", layout.Printable(s.SessionID))}
	}
	return s.SessionID, nil
}

// attachOnHost attaches this terminal to the session f names on its
// host, with ssh -t; without a terminal, it says which command would.
func (cl *CommandLine) attachOnHost(ctx context.Context, f forwarded, r *reading) error {
	id, err := cl.sessionOnHost(ctx, f.host, f.id)
	if err != nil {
		return err
	}
	window, _ := flagValue(r.flags, "--window")
	s, err := cl.ssh()
	if err != nil {
		return err
	}
	argv, err := s.AttachArgv(f.host, id, window)
	if err != nil {
		return err
	}
	if !cl.io.StdinTTY || !cl.io.StdoutTTY {
		return fmt.Errorf("not a terminal: attach from one with: %s", strings.Join(quoted(argv), " "))
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = cl.io.Stdin, cl.io.Stdout, cl.io.Stderr
	if err := cmd.Run(); err != nil {
		return &remote.Error{Host: f.host.Name, Err: fmt.Errorf("ssh -t: %w", err)}
	}
	return nil
}

// createHost is the host that session create --host name makes the
// session on: the host of that name, or for "auto" the one place
// chooses; nil is this machine.
func (cl *CommandLine) createHost(ctx context.Context, name string) (*remote.Host, error) {
	if name != autoHost {
		h, err := cl.host(name)
		if err != nil {
			return nil, fmt.Errorf("session create: %w", err)
		}
		return &h, nil
	}
	h, local, err := cl.place(ctx)
	if local || err != nil {
		return nil, err
	}
	return &h, nil
}

// createOnHost creates a session on host h with the host's own mas, and
// prints NAME:<uuid> (with --json, the session as the host's session show
// --json prints it, with "host"). Nothing is written on this side.
func (cl *CommandLine) createOnHost(ctx context.Context, r *reading, h remote.Host) error {
	var config []byte
	if path, ok := flagValue(r.flags, "--config"); ok {
		data, _, err := app.ReadConfig(cl.app.Abs(path))
		if err != nil {
			return app.StartFailed(app.Isolated, err)
		}
		config = data
	}
	created, err := cl.app.CreateOnHost(ctx, h, config)
	if err != nil {
		return err
	}
	s, id := created.Session, created.ID
	// The host's hint names the session as the host knows it: this
	// side's follows.
	cl.relay(cl.io.Stderr.Write, dropLines(created.Stderr, "attach with: "), false)
	ref := h.Name + ":" + id
	cl.stderr.Infof("Session %s is running on host %s; attach with: mas session attach %s", ref, h.Name, h.Name+":"+id[:8])
	if switchOn(r.flags, "--json") {
		s["host"] = h.Name
		err = cl.writeJSON(s)
	} else {
		_, err = fmt.Fprintln(cl.io.Stdout, ref)
	}
	if err != nil || switchOn(r.flags, "--no-attach") || !cl.io.StdinTTY || !cl.io.StdoutTTY {
		return err
	}
	return cl.attachOnHost(ctx, forwarded{host: h, id: id}, &reading{cmd: cmdSessionAttach})
}

// hostEnvVars are the variables of the session ref names on host h (err:
// why it names none): MAS_SESSION_ID=NAME:<uuid> alone, which makes the
// commands of this shell act on it there. The host's paths and tmux name
// mean nothing here.
func (cl *CommandLine) hostEnvVars(ctx context.Context, h remote.Host, ref string, unset bool, err error) ([]envfile.Var, error) {
	// Its name is all --unset needs: a shell holds it after the host is
	// gone too.
	if unset {
		return []envfile.Var{{Key: "MAS_SESSION_ID"}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("env: %w", err)
	}
	id, err := cl.sessionOnHost(ctx, h, ref)
	if err != nil {
		return nil, err
	}
	return []envfile.Var{{Key: "MAS_SESSION_ID", Value: h.Name + ":" + id}}, nil
}

// uuidIn finds a session id in a line.
var uuidIn = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// hostHints is what host name's mas wrote on stderr with its "attach
// with:" hints said for this machine: mas session attach NAME:<id> of the
// session the line names, or none. The host's own (its id alone, its tmux
// socket) would look for the session here.
func hostHints(text, name string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		said, _, ok := strings.Cut(l, "; attach with: ")
		if !ok {
			continue
		}
		if id := uuidIn.FindString(said); id != "" {
			said += "; attach with: mas session attach " + name + ":" + id[:8]
		}
		if strings.HasSuffix(l, "\n") {
			said += "\n"
		}
		lines[i] = said
	}
	return strings.Join(lines, "")
}

// dropLines is text without the lines that hold marker.
func dropLines(text, marker string) string {
	lines := strings.SplitAfter(text, "\n")
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return strings.Contains(l, marker) }), "")
}
