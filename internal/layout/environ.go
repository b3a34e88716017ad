package layout

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"mas/tmux"
)

// Environments reads the session environment (what new-session -e set) of
// each session, by ID, in one tmux invocation: a show-environment per
// session, each followed by a marker line that tmux prints, so that the
// output tells whose variables are whose. A session that ends in between
// stops the invocation at its show-environment; it is left out, and the
// sessions after it are read by one more invocation.
//
// Values are read as show-environment -s quotes them, so that a value
// holding a newline can never look like another variable (see
// parseEnvironment); an environment printed in another shape is an error.
// A variable the session removed is absent.
func Environments(ctx context.Context, c tmux.Client, ids []string) (map[string]map[string]string, error) {
	// A random marker, which no value can spell out in advance.
	marker := "mas-environment-" + rand.Text()
	envs := map[string]map[string]string{}
	for len(ids) > 0 {
		var cmds [][]string
		for _, id := range ids {
			cmds = append(cmds, []string{"show-environment", "-s", "-t", id}, []string{"display-message", "-p", marker})
		}
		out, err := c.Batch(ctx, nil, cmds...)
		blocks := strings.Split(string(out), marker+"\n")
		done := len(blocks) - 1 // the sessions whose marker came out
		for i, b := range blocks[:done] {
			env, perr := parseEnvironment(b)
			if perr != nil {
				return nil, fmt.Errorf("tmux show-environment of session %s: %w", ids[i], perr)
			}
			envs[ids[i]] = env
		}
		switch {
		case err == nil:
			return envs, nil
		case tmux.NoSession(err):
			// ids[done] has ended: its show-environment failed.
			ids = ids[done+1:]
		case isMissing(err):
			return envs, nil // the server has gone, with every session
		default:
			return nil, err
		}
	}
	return envs, nil
}

// parseEnvironment reads what show-environment -s prints: for each
// variable NAME="VALUE"; export NAME; on a line, where tmux escapes $, `,
// " and \ in VALUE with a backslash and leaves its newlines as they are,
// or unset NAME; for one the session removed. Every quote of a value is
// escaped, so no value, whatever it holds, ends before its own end: any
// output of another shape is an error, never read in part.
func parseEnvironment(out string) (map[string]string, error) {
	env := map[string]string{}
	for out != "" {
		if rest, ok := strings.CutPrefix(out, "unset "); ok {
			name, after, ok := strings.Cut(rest, ";\n")
			if !ok || !envName(name) {
				return nil, fmt.Errorf("unreadable line %.80q", out)
			}
			out = after
			continue
		}
		name, rest, ok := strings.Cut(out, `="`)
		if !ok || !envName(name) {
			return nil, fmt.Errorf("unreadable line %.80q", out)
		}
		var v strings.Builder
		i := 0
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' {
				if i++; i == len(rest) || !strings.ContainsRune("$`\"\\", rune(rest[i])) {
					return nil, fmt.Errorf("variable %s: unreadable value", name)
				}
			}
			v.WriteByte(rest[i])
		}
		end := `"; export ` + name + ";\n"
		if !strings.HasPrefix(rest[i:], end) {
			return nil, fmt.Errorf("variable %s: unreadable value", name)
		}
		env[name] = v.String()
		out = rest[i+len(end):]
	}
	return env, nil
}

// envName tells whether s can be the name of a variable as
// parseEnvironment reads it: tmux refuses only "=" in a name (a space, a
// quote or a semicolon are its to keep); a newline would end the line.
func envName(s string) bool { return s != "" && !strings.ContainsAny(s, "=\n") }
