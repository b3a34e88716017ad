package cli

import (
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

var cmdMan = &command{name: "man", usage: "Print this manual as a roff man page: mas man | man -l -",
	action: (*CommandLine).man}

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
	fmt.Fprintf(&b, ".TH MAS 1 \"\" \"mas %s\" \"User Commands\"\n", roff(cl.io.Version))
	b.WriteString(".SH NAME\nmas \\- run a team of 13 coding agents in tmux\n")
	b.WriteString(".SH SYNOPSIS\n.B mas\n.I command\n.RI [ arguments ]\n.RI [ flags ]\n.br\n")
	b.WriteString(".B mas\n[\\fB\\-v\\fR|\\fB\\-\\-version\\fR|\\fB\\-h\\fR|\\fB\\-\\-help\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n" + roff(manDescription) + "\n")
	b.WriteString(".SH OPTIONS\n")
	writeManFlags(&b, cl.root.flags)
	b.WriteString(".SH COMMANDS\n")
	var walk func(prefix string, cmds []*command)
	walk = func(prefix string, cmds []*command) {
		for _, c := range cmds {
			fmt.Fprintf(&b, ".TP\n\\fB%s\\fR", roff(prefix+c.name))
			for _, arg := range c.shownArgs() {
				fmt.Fprintf(&b, " \\fI%s\\fR", roff(arg))
			}
			fmt.Fprintf(&b, "\n%s\n", roff(c.usage))
			if len(c.flags) > 0 {
				b.WriteString(".RS\n")
				writeManFlags(&b, c.flags)
				b.WriteString(".RE\n")
			}
			walk(prefix+c.name+" ", c.subs)
		}
	}
	walk("", cl.root.subs)
	// The help's footer: targets and ids verbatim, the environment as a list.
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
				fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", roff(name), roff(strings.TrimSpace(usage)))
			}
		case body == "":
			fmt.Fprintf(&b, ".SH SESSION IDS\n%s\n", roff(title))
		default:
			fmt.Fprintf(&b, ".SH %s\n.nf\n", roff(strings.ToUpper(strings.TrimSuffix(title, ":"))))
			for _, line := range strings.Split(body, "\n") {
				b.WriteString(roff(strings.TrimPrefix(line, "  ")) + "\n")
			}
			b.WriteString(".fi\n")
		}
	}
	b.WriteString(".SH EXIT STATUS\n0 success, 1 failure, 2 usage error.\n")
	b.WriteString(".SH SEE ALSO\n.BR tmux (1)\n")
	return b.String()
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
