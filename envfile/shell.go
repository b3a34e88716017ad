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

// ParseShell accepts "bash", "zsh", "posix", "sh" (as posix) and "fish".
func ParseShell(name string) (Shell, error) {
	switch name {
	case "posix", "sh":
		return POSIX, nil
	case "bash", "zsh", "fish":
		return Shell(name), nil
	}
	return "", fmt.Errorf("unknown shell %q (want bash, zsh, posix or fish)", name)
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
