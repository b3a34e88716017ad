package envfile

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell is a shell syntax for export and unset commands.
type Shell string

// The shells Exports and Unsets can write for.
const (
	POSIX Shell = "posix"
	Bash  Shell = "bash"
	Zsh   Shell = "zsh"
	Fish  Shell = "fish"
)

// ShellNames are the names of the shells Exports and Unsets can write
// for, in the order a message lists them.
func ShellNames() []string { return []string{string(Bash), string(Zsh), string(POSIX), string(Fish)} }

// ShellList names the shells for a message: "bash, zsh, posix or fish".
func ShellList() string {
	names := ShellNames()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseShell accepts the ShellNames, and "sh" as posix.
func ParseShell(name string) (Shell, error) {
	if name == "sh" {
		return POSIX, nil
	}
	if slices.Contains(ShellNames(), name) {
		return Shell(name), nil
	}
	return "", fmt.Errorf("unknown shell %q (want %s)", name, ShellList())
}

// Exports returns commands that set and export vars in sh, one per line,
// sorted by key: `export K='v'`, or `set -gx K 'v'` for fish. Values are
// checked as Encode checks them.
func Exports(vars []Var, sh Shell) (string, error) {
	sorted := slices.Clone(vars)
	slices.SortFunc(sorted, func(a, b Var) int { return strings.Compare(a.Key, b.Key) })
	var b strings.Builder
	for _, v := range sorted {
		if err := checkValue(v.Value); err != nil {
			return "", fmt.Errorf("value of %s: %w", v.Key, err)
		}
		if sh == Fish {
			fmt.Fprintf(&b, "set -gx %s %s\n", v.Key, fishQuote(v.Value))
			continue
		}
		lang := syntax.LangBash
		if sh == POSIX {
			lang = syntax.LangPOSIX
		}
		q, err := syntax.Quote(v.Value, lang)
		if err != nil {
			return "", fmt.Errorf("value of %s: %w", v.Key, err)
		}
		fmt.Fprintf(&b, "export %s=%s\n", v.Key, q)
	}
	return b.String(), nil
}

// Unsets returns commands that remove keys in sh, sorted.
func Unsets(keys []string, sh Shell) string {
	sorted := slices.Sorted(slices.Values(keys))
	if sh == Fish {
		var b strings.Builder
		for _, k := range sorted {
			fmt.Fprintf(&b, "set -e %s\n", k)
		}
		return b.String()
	}
	return "unset " + strings.Join(sorted, " ") + "\n"
}

// fishQuote writes s in single quotes, where fish gives meaning only to
// \\ and \'.
func fishQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}
