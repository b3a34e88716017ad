package cli

import (
	"fmt"
	"strings"

	"github.com/xrash/smetrics"

	"mas/internal/app"
)

// closeEnough is the Jaro-Winkler similarity a name needs to be suggested
// for a word that names nothing. urfave/cli suggests its best name
// however far it is ("bogus": status); this bar keeps the typos ("stauts",
// "lsit", "exectue", "sesion") and leaves other words unanswered. It was
// chosen from a table of typos and of words from other tools (TestSuggest).
const closeEnough = 0.83

// suggest is the name of names most like word, as urfave/cli's "did you
// mean" measures it (Jaro-Winkler, its boost and prefix size), or "" when
// none is close enough.
func suggest(word string, names []string) string {
	best, score := "", 0.0
	for _, n := range names {
		if s := smetrics.JaroWinkler(word, n, 0.7, 4); s > score {
			best, score = n, s
		}
	}
	if score < closeEnough {
		return ""
	}
	return best
}

// unknownCommand is the usage error of a word that names no command of
// the group r has reached, with the command it most looks like.
func (r *reading) unknownCommand(w string) error {
	msg := fmt.Sprintf("unknown command %q", w)
	if s := suggest(w, r.cmd.subNames()); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return r.usage(msg)
}

// unknownFlag is the usage error of a word that names no flag of the
// command r has reached, with the flag it most looks like. A one-letter
// flag has no neighbours worth naming.
func (r *reading) unknownFlag(w string) error {
	msg := "unknown flag " + w
	name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
	if len(name) > 1 {
		var longs []string
		for _, f := range r.cmd.flags {
			longs = append(longs, f.long)
		}
		if s := suggest(name, longs); s != "" {
			msg += "; did you mean --" + s + "?"
		}
	}
	return r.usage(msg)
}

// usage is a usage error about the command r has reached: its names
// first, as "session show: …".
func (r *reading) usage(msg string) error {
	if p := r.path(); p != "" {
		msg = p + ": " + msg
	}
	return app.Usagef("%s", msg)
}
