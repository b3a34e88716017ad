package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// settingsFile is the part of a Claude Code settings file the fake reads.
type settingsFile struct {
	Hooks           map[string][]matcherGroup `json:"hooks"`
	DisableAllHooks bool                      `json:"disableAllHooks"`
}

// A matcherGroup is one entry of an event's list: the hooks to run when
// the matcher matches.
type matcherGroup struct {
	Matcher string `json:"matcher"`
	Hooks   []struct {
		Type    string  `json:"type"`
		Command string  `json:"command"`
		Timeout float64 `json:"timeout"` // seconds; 0 means the default
	} `json:"hooks"`
}

// A hook is one command hook, from whichever source.
type hook struct {
	matcher *regexp.Regexp // nil matches everything
	command string
	timeout time.Duration
}

// defaultTimeout is how long a hook command may run when its settings
// give no timeout.
const defaultTimeout = 60 * time.Second

// hooks holds every source's command hooks, by event, in the order of
// the sources.
type hooks map[string][]hook

// loadSettings reads the settings sources in Claude Code's order: the
// user's, the project's, the project's local file, then the --settings
// flag (JSON when it starts with "{", else a file). A source that is
// missing is skipped; one that does not parse is reported on warn and
// skipped, except the flag's, which is an error. A source that sets
// disableAllHooks turns every hook off.
func loadSettings(home, project, flag string, warn func(string)) (hooks, error) {
	all := hooks{}
	disabled := false
	add := func(s settingsFile) {
		disabled = disabled || s.DisableAllHooks
		for event, groups := range s.Hooks {
			for _, g := range groups {
				m := compileMatcher(g.Matcher)
				for _, h := range g.Hooks {
					if h.Type != "command" || h.Command == "" {
						continue
					}
					timeout := defaultTimeout
					if h.Timeout > 0 {
						timeout = time.Duration(h.Timeout * float64(time.Second))
					}
					all[event] = append(all[event], hook{matcher: m, command: h.Command, timeout: timeout})
				}
			}
		}
	}
	for _, path := range []string{
		filepath.Join(home, ".claude", "settings.json"),
		filepath.Join(project, ".claude", "settings.json"),
		filepath.Join(project, ".claude", "settings.local.json"),
	} {
		s, err := readSettings(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			warn(fmt.Sprintf("Settings error: %v (ignored)", err))
		default:
			add(s)
		}
	}
	if flag != "" {
		var s settingsFile
		var err error
		if strings.HasPrefix(flag, "{") {
			if err = json.Unmarshal([]byte(flag), &s); err != nil {
				err = fmt.Errorf("--settings: %w", err)
			}
		} else {
			s, err = readSettings(flag)
		}
		if err != nil {
			return nil, err
		}
		add(s)
	}
	if disabled {
		return hooks{}, nil
	}
	return all, nil
}

// readSettings reads one settings file.
func readSettings(path string) (settingsFile, error) {
	var s settingsFile
	b, err := os.ReadFile(path)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// compileMatcher turns a matcher into a regexp that must match the whole
// value. An empty matcher or "*" matches everything (nil). A matcher that
// is not a regexp matches nothing.
func compileMatcher(m string) *regexp.Regexp {
	if m == "" || m == "*" {
		return nil
	}
	re, err := regexp.Compile("^(?:" + m + ")$")
	if err != nil {
		return regexp.MustCompile(`[^\s\S]`)
	}
	return re
}

// matchFields names, for each event that has a matcher, the input field
// it is matched against. The other events run all their hooks.
var matchFields = map[string]string{
	"PreToolUse":        "tool_name",
	"PermissionRequest": "tool_name",
	"PostToolUse":       "tool_name",
	"Notification":      "notification_type",
	"SessionStart":      "source",
	"SessionEnd":        "reason",
}

// matching returns the hooks of event whose matcher matches value, each
// command once, in the order of the sources.
func (hs hooks) matching(event, value string) []hook {
	_, hasMatcher := matchFields[event]
	var out []hook
	seen := map[string]bool{}
	for _, h := range hs[event] {
		if hasMatcher && h.matcher != nil && !h.matcher.MatchString(value) {
			continue
		}
		if seen[h.command] {
			continue
		}
		seen[h.command] = true
		out = append(out, h)
	}
	return out
}
