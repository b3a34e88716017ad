package cli

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"
)

var cmdMan = &command{name: "man", usage: "Print this manual as a roff man page: mas man | man -l -",
	action: (*CommandLine).man,
	examples: []example{
		{"mas man | man -l -", "read this manual"},
		{"mas man > /usr/local/share/man/man1/mas.1", "install it where man finds it"},
	}}

// man prints the manual page mas(1), generated from the same command specs
// as help. (urfave/cli's ToMan, through go-md2man, drops the positional
// arguments, shows each flag's placeholder as its default and sorts the
// flags, so the page is written in roff here.)
func (cl *CommandLine) man(context.Context, *ucli.Context) error {
	_, err := fmt.Fprint(cl.io.Stdout, cl.manPage())
	return err
}

// manPage is mas(1) in roff, with the man macros.
func (cl *CommandLine) manPage() string {
	var b strings.Builder
	bi, ok := debug.ReadBuildInfo()
	fmt.Fprintf(&b, ".TH MAS 1 %s \"mas %s\" \"User Commands\"\n", manDate(bi, ok, cl.io.Exe, time.Now()), roff(cl.io.Version))
	b.WriteString(".SH NAME\nmas \\- run a team of 13 coding agents in tmux\n")
	b.WriteString(".SH SYNOPSIS\n.B mas\n.I command\n.RI [ arguments ]\n.RI [ flags ]\n.br\n")
	b.WriteString(".B mas\n[\\fB\\-v\\fR|\\fB\\-\\-version\\fR|\\fB\\-h\\fR|\\fB\\-\\-help\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n" + roff(manDescription) + "\n")
	b.WriteString(".SH OPTIONS\n")
	writeManFlags(&b, cl.root.flags)
	b.WriteString(".SH COMMANDS\n")
	writeManCommands(&b, "", cl.root.subs)
	writeManFooter(&b)
	writeManFiles(&b)
	b.WriteString(".SH EXIT STATUS\n0 success, 1 failure, 2 usage error.\n")
	b.WriteString(".SH EXAMPLES\n")
	for _, e := range allExamples(cl.root) {
		fmt.Fprintf(&b, ".TP\n\\fB%s\\fR\n%s\n", roff(e.line), roff(e.what))
	}
	b.WriteString(".SH SEE ALSO\n.BR tmux (1)\n")
	return b.String()
}

// writeManCommands lists cmds and their subcommands, each with its flags.
func writeManCommands(b *strings.Builder, prefix string, cmds []*command) {
	for _, c := range cmds {
		fmt.Fprintf(b, ".TP\n\\fB%s\\fR", roff(prefix+c.name))
		for _, arg := range c.shownArgs() {
			fmt.Fprintf(b, " \\fI%s\\fR", roff(arg))
		}
		fmt.Fprintf(b, "\n%s\n", roff(c.usage))
		if len(c.flags) > 0 {
			b.WriteString(".RS\n")
			writeManFlags(b, c.flags)
			b.WriteString(".RE\n")
		}
		writeManCommands(b, prefix+c.name+" ", c.subs)
	}
}

// writeManFooter makes sections of the help's footer: the targets
// verbatim, the session ids as a paragraph, the environment as a list.
func writeManFooter(b *strings.Builder) {
	for _, block := range strings.Split(strings.TrimSpace(rootHelpFooter), "\n\n") {
		title, body, _ := strings.Cut(block, "\n")
		switch {
		case title == "Environment:":
			b.WriteString(".SH ENVIRONMENT\n")
			for _, line := range strings.Split(body, "\n") {
				if text, more := strings.CutPrefix(line, "    "); more {
					b.WriteString(roff(strings.TrimSpace(text)) + "\n")
					continue
				}
				name, usage, _ := strings.Cut(strings.TrimSpace(line), " ")
				fmt.Fprintf(b, ".TP\n.B %s\n%s\n", roff(name), roff(strings.TrimSpace(usage)))
			}
		case !strings.HasSuffix(title, ":"):
			// A paragraph, "<id> (…): …", not a title.
			fmt.Fprintf(b, ".SH SESSION IDS\n%s\n", roff(strings.Join(strings.Fields(block), " ")))
		default:
			// "Targets (send, wait, peek, list -u):": the title in capitals,
			// what it is for as it was written (-u stays -u).
			name, note, _ := strings.Cut(strings.TrimSuffix(title, ":"), " (")
			fmt.Fprintf(b, ".SH %s\n", roff(strings.ToUpper(name)))
			if note != "" {
				fmt.Fprintf(b, "For %s:\n", roff(strings.TrimSuffix(note, ")")))
			}
			b.WriteString(".PP\n.nf\n")
			for _, line := range strings.Split(body, "\n") {
				b.WriteString(roff(strings.TrimPrefix(line, "  ")) + "\n")
			}
			b.WriteString(".fi\n")
		}
	}
}

// manFiles are the files mas reads and writes under its root, as
// docs/files.md describes them.
var manFiles = [][2]string{
	{"$ROOT", "the root: MAS_ROOT, else MAS_WORKSPACE_ROOT, else the nearest directory above holding .masrc or config.json, " +
		"else the binary's directory when it holds unit/ or workflows/, else the working directory"},
	{"$ROOT/.masrc", "the project's name, written by mas init; read, never executed"},
	{"$ROOT/unit/, $ROOT/workflows/", "the agents' unit files and the workflows, filled from the templates when missing"},
	{"$ROOT/.mas_session", "the legacy session that runs: written by start, removed by stop"},
	{"$ROOT/logs/agent-NN.log", "with MAS_PANE_LOGS=1, everything a pane of a legacy session prints"},
	{"$ROOT/.mas_http.pid, $ROOT/.mas_http.socket, $ROOT/.mas_http.log", "the root's background HTTP server: its pid, its socket and its log"},
	{"$ROOT/.mas_bin/", "the links to mas that the panes find first on their PATH"},
	{"$ROOT/.mas_activity/", "what the agents of the legacy session report; its .tmux-version is the tmux binary that passed the version check"},
	{"$ROOT/sessions/<uuid>/", "an isolated session: .session, metadata.json, config.json, unit/, workflows/ and logs/ (session.log; agent-NN.log with MAS_PANE_LOGS=1)"},
	{"$ROOT/sessions/.sessions.index", "every isolated session of the root, as JSON"},
	{"$ROOT/sessions/.index", "the journal of every change of a session's status"},
	{"$ROOT/hosts.json", "the hosts that sessions run on over ssh (mas host add), as JSON"},
	{"$ROOT/sessions/.tmux-version", "the tmux binary that passed the version check, so that the next start does not ask again"},
}

// writeManFiles writes the FILES section.
func writeManFiles(b *strings.Builder) {
	b.WriteString(".SH FILES\n")
	for _, f := range manFiles {
		fmt.Fprintf(b, ".TP\n\\fI%s\\fR\n%s\n", roff(f[0]), roff(f[1]))
	}
}

// manDate is the date of the page, in quotes: the day of the commit the
// binary was built from, else the day the binary was written (go install
// from the module cache records no commit), else today.
func manDate(bi *debug.BuildInfo, ok bool, exe string, now time.Time) string {
	day := now
	if fi, err := os.Stat(exe); exe != "" && err == nil {
		day = fi.ModTime()
	}
	for _, s := range settings(bi, ok) {
		if t, err := time.Parse(time.RFC3339, s.Value); s.Key == "vcs.time" && err == nil {
			day = t
		}
	}
	return `"` + day.UTC().Format(time.DateOnly) + `"`
}

// settings are the build settings of bi, none when ok is false.
func settings(bi *debug.BuildInfo, ok bool) []debug.BuildSetting {
	if !ok || bi == nil {
		return nil
	}
	return bi.Settings
}

const manDescription = `mas runs a team of thirteen coding agents, a meta manager and three units of a manager and three workers, each in a pane of one tmux session, and types messages into their input. It is a drop-in replacement for the bash tool mas_refactored.sh and answers to both names. Standard output carries data only; progress, warnings and errors go to standard error as "mas: ..." lines.`

func writeManFlags(b *strings.Builder, flags []flagSpec) {
	for _, f := range flags {
		b.WriteString(".TP\n")
		if f.short != "" {
			fmt.Fprintf(b, "\\fB\\-%s\\fR, ", roff(f.short))
		}
		fmt.Fprintf(b, "\\fB\\-\\-%s\\fR", roff(f.long))
		if f.value != "" {
			fmt.Fprintf(b, " \\fI%s\\fR", roff(f.value))
		}
		fmt.Fprintf(b, "\n%s\n", roff(f.usage))
	}
}

// roff escapes text for a roff line: backslashes, dashes (which roff
// would set as hyphens), characters beyond ASCII (groff reads Latin-1
// unless preconv runs) and a leading dot or quote (a request).
func roff(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r > 0x7f:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	s = b.String()
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
