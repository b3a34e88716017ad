package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"mas/internal/remote"
)

// IsRemote tells whether args is "mas __remote", the remote side of a
// request from another machine's mas (docs/hosts.md).
func IsRemote(args []string) bool { return len(args) == 2 && args[1] == remote.Command }

// Runner runs a command line as package main does: run returns its exit
// code, fail prints an error as main does and returns the exit code it
// means.
type Runner struct {
	Run  func(context.Context, IO) int
	Fail func(error, io.Writer) int
}

// ServeRemote is "mas __remote": it reads one remote.Request on stdin, runs
// its command line here with r, as "mas ARGS…" would run with the
// request's root and session, and writes a remote.Reply on stdout with
// what the command printed and its exit code. The request's words never
// pass through a shell. The end of stdin after the request means that the
// caller went (its ssh was killed): the command is then interrupted, as by
// Ctrl-C.
func ServeRemote(ctx context.Context, e IO, r Runner) int {
	var req remote.Request
	in := &io.LimitedReader{R: e.Stdin, N: remote.MaxRequest}
	if err := json.NewDecoder(in).Decode(&req); err != nil {
		if in.N == 0 {
			err = fmt.Errorf("it is over %d MiB", remote.MaxRequest>>20)
		}
		return r.Fail(fmt.Errorf("%s: read the request on stdin: %w", remote.Command, err), e.Stderr)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		io.Copy(io.Discard, e.Stdin)
		cancel(fmt.Errorf("the caller closed the connection"))
	}()
	var stdout, stderr strings.Builder
	code := r.request(ctx, e, req, &stdout, &stderr)
	// Without HTML escaping, which would write '<', '>' and '&' in 6
	// bytes each against the caller's cap (remote.MaxReply).
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(remote.Reply{Protocol: remote.Protocol, Version: e.Version, Exit: code,
		Stdout: stdout.String(), Stderr: stderr.String()}); err != nil {
		return r.Fail(err, e.Stderr)
	}
	if _, err := e.Stdout.Write(out.Bytes()); err != nil {
		return r.Fail(fmt.Errorf("%s: write the reply: %w", remote.Command, err), e.Stderr)
	}
	return 0
}

// request runs the command line of req with stdout and stderr, and
// returns its exit code.
func (r Runner) request(ctx context.Context, e IO, req remote.Request, stdout, stderr io.Writer) int {
	switch {
	case req.Protocol != remote.Protocol:
		return r.Fail(fmt.Errorf("%s: protocol %d; this mas (version %s) speaks %d: install the same version on both machines",
			remote.Command, req.Protocol, e.Version, remote.Protocol), stderr)
	case len(req.Args) == 0 || slices.Contains(req.Args, remote.Command):
		return r.Fail(fmt.Errorf("%s: the request names no command", remote.Command), stderr)
	}
	args := append([]string{e.Args[0]}, req.Args...)
	if len(req.Config) > 0 {
		path, err := writeConfig(req.Config)
		if err != nil {
			return r.Fail(err, stderr)
		}
		defer os.Remove(path)
		args = append(args, "--config", path)
	}
	vars := map[string]string{"MAS_SESSION_ID": req.Session, "MAS_SESSION_NAME": ""}
	if req.Root != "" {
		vars["MAS_ROOT"] = req.Root
	}
	e.Args, e.Stdin, e.Stdout, e.Stderr = args, strings.NewReader(""), stdout, stderr
	e.StdinTTY, e.StdoutTTY, e.StderrTTY, e.Columns = false, false, false, 0
	e.Getenv, e.Environ = overlay(e.Getenv, e.Environ, vars)
	return r.Run(ctx, e)
}

// overlay is getenv and environ with vars set over them (an empty value
// unsets).
func overlay(getenv func(string) string, environ func() []string, vars map[string]string) (func(string) string, func() []string) {
	get := func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		return getenv(k)
	}
	list := func() []string {
		var out []string
		for _, kv := range environ() {
			if k, _, _ := strings.Cut(kv, "="); !hasKey(vars, k) {
				out = append(out, kv)
			}
		}
		for k, v := range vars {
			if v != "" {
				out = append(out, k+"="+v)
			}
		}
		return out
	}
	return get, list
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// writeConfig writes the config of a request to a file of its own, 0600,
// for the command's --config, which copies it into the session.
func writeConfig(data []byte) (string, error) {
	f, err := os.CreateTemp("", "mas-config-*.json")
	if err != nil {
		return "", fmt.Errorf("write the config: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write the config: %w", err)
	}
	return f.Name(), nil
}
