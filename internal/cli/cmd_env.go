package cli

import (
	"context"
	"errors"
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"mas/envfile"
	"mas/internal/app"
	"mas/isolated"
)

var cmdEnv = &command{name: "env", args: []arg{required(sessionArg, "<id>")}, usage: `Print a session's variables: vars=$(mas env ID) && eval "$vars"`,
	flags: []flagSpec{
		{long: "shell", value: "SHELL", kind: envShellArg, usage: envfile.ShellList() + " (default " + string(defaultEnvShell) + ")"},
		{long: "unset", usage: "print the commands that remove the variables"},
		{long: "json", usage: "print a JSON object"},
	},
	action: (*CommandLine).envCommand,
	examples: []example{
		{"vars=$(mas env 1612c47f) && eval \"$vars\"", "load a session's variables into this shell"},
		{"eval \"$(mas env 1612c47f --unset)\"", "remove them again"},
		{"mas env 1612c47f --shell fish | source", "the same in fish"},
	}}

// defaultEnvShell is the syntax "mas env" prints without --shell.
const defaultEnvShell = envfile.POSIX

// envCommand prints a session's variables for eval. Everything is built
// before anything is written, so that a failure leaves stdout empty and
// `vars=$(mas env ID) && eval "$vars"` evaluates nothing.
func (cl *CommandLine) envCommand(ctx context.Context, cc *ucli.Context) error {
	shell := defaultEnvShell
	if cc.IsSet("shell") {
		sh, err := envfile.ParseShell(cc.String("shell"))
		if err != nil {
			return app.Usagef("env: --shell: %v", err)
		}
		shell = sh
	}
	ref := cc.Args().First()
	vars, err := cl.envVars(ctx, ref, cc.Bool("unset"))
	if err != nil {
		return err
	}
	var out string
	switch {
	case cc.Bool("json"):
		obj := map[string]*string{}
		for _, v := range vars {
			if cc.Bool("unset") {
				obj[v.Key] = nil
			} else {
				obj[v.Key] = &v.Value
			}
		}
		data, err := marshalJSON(obj)
		if err != nil {
			return err
		}
		out = string(data)
	case cc.Bool("unset"):
		var keys []string
		for _, v := range vars {
			keys = append(keys, v.Key)
		}
		out = envfile.Unsets(keys, shell)
	default:
		if out, err = envfile.Exports(vars, shell); err != nil {
			return fmt.Errorf("session %s: %w", ref, err)
		}
	}
	if _, err := fmt.Fprint(cl.io.Stdout, out); err != nil {
		return err
	}
	if cl.io.StdoutTTY && !cc.Bool("json") {
		cl.stderr.Hintf("%s", envHint(ref, shell, cc.Bool("unset")))
	}
	return nil
}

// envVars are the variables of session ref. With unset, only their names
// count, which are the same for every session: a session that is gone
// (removed, or under another root) has them too, so that a shell that
// still holds them can drop them.
func (cl *CommandLine) envVars(ctx context.Context, ref string, unset bool) ([]envfile.Var, error) {
	if h, id, ok, err := cl.hostRef(ref); ok {
		return cl.hostEnvVars(ctx, h, id, unset, err)
	}
	root, id, err := cl.app.Find(ref, "env: ")
	if leg := (*app.LegacyError)(nil); errors.As(err, &leg) {
		return nil, app.Usagef("env: %v: only an isolated session has variables to print", leg)
	}
	if unset && errors.Is(err, isolated.ErrNoSession) {
		return (&isolated.Session{}).Environment(), nil
	}
	if err != nil {
		return nil, err
	}
	s, err := isolated.Load(root, id)
	if err != nil {
		return nil, err
	}
	return s.Environment(), nil
}

// envHint tells a user at a terminal how to apply what env printed, in
// the form of the shell it was printed for.
func envHint(ref string, shell envfile.Shell, unset bool) string {
	switch {
	case unset:
		return "to remove these from your shell: " + app.UnsetCommand(ref, shell == envfile.Fish)
	case shell == envfile.Fish:
		return "to load these into your shell: mas env " + ref + " --shell fish | source"
	}
	return `to load these into your shell: vars=$(mas env ` + ref + `) && eval "$vars"`
}
