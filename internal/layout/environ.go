package layout

import (
	"context"
	"crypto/rand"
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
// A variable the session removed (-NAME) is absent, and so is one listed
// twice: show-environment prints values as they are, and a value holding
// a newline can look like another variable.
func Environments(ctx context.Context, c tmux.Client, ids []string) (map[string]map[string]string, error) {
	// A random marker, which no value can spell out in advance.
	marker := "mas-environment-" + rand.Text()
	envs := map[string]map[string]string{}
	for len(ids) > 0 {
		var cmds [][]string
		for _, id := range ids {
			cmds = append(cmds, []string{"show-environment", "-t", id}, []string{"display-message", "-p", marker})
		}
		out, err := c.Batch(ctx, nil, cmds...)
		blocks := strings.Split(string(out), marker+"\n")
		done := len(blocks) - 1 // the sessions whose marker came out
		for i, b := range blocks[:done] {
			envs[ids[i]] = parseEnvironment(b)
		}
		switch {
		case err == nil:
			return envs, nil
		case stderrHas(err, "no such session", "can't find session"):
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

// parseEnvironment reads show-environment's NAME=VALUE lines.
func parseEnvironment(out string) map[string]string {
	env := map[string]string{}
	twice := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok || k == "" || strings.HasPrefix(k, "-") {
			continue
		}
		if _, seen := env[k]; seen || twice[k] {
			delete(env, k)
			twice[k] = true
			continue
		}
		env[k] = v
	}
	return env
}
