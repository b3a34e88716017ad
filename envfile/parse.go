package envfile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

const syscallNoFollow = syscall.O_NOFOLLOW

// ParseError is a line of a file that Parse refuses.
type ParseError struct {
	File   string
	Line   int // 1-based; 0 when the error is about the whole file
	Reason string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Reason)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
}

// Parse reads file content without executing anything. It accepts blank
// lines, whole-line # comments and lines of exactly one plain assignment
// KEY=value of an allowed key, where value is a literal word or a quoted
// literal. It refuses everything a shell would do more with: expansions,
// substitutions, arithmetic, tilde, several commands, redirections, extra
// words, export, arrays and keys outside allowed; NUL, CR, control
// characters and invalid UTF-8 anywhere. go-envparse must read the same
// content to the same values.
func Parse(name string, data []byte, allowed []string) ([]Var, error) {
	if err := checkBytes(name, data); err != nil {
		return nil, err
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).
		Parse(bytes.NewReader(data), name)
	if err != nil {
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			return nil, &ParseError{File: name, Line: int(pe.Pos.Line()), Reason: pe.Text}
		}
		return nil, &ParseError{File: name, Reason: err.Error()}
	}
	var vars []Var
	seen := map[string]bool{}
	lastLine := uint(0)
	for _, st := range f.Stmts {
		line := st.Pos().Line()
		fail := func(format string, args ...any) error {
			return &ParseError{File: name, Line: int(line), Reason: fmt.Sprintf(format, args...)}
		}
		if line == lastLine {
			return nil, fail("more than one command on the line")
		}
		lastLine = line
		if st.End().Line() != line {
			return nil, fail("an assignment must fit on one line")
		}
		for _, c := range st.Comments {
			if c.Pos().Line() == line {
				return nil, fail("comments must be on lines of their own")
			}
		}
		v, err := assignment(st, allowed)
		if err != nil {
			return nil, fail("%v", err)
		}
		if seen[v.Key] {
			return nil, fail("%s is assigned twice", v.Key)
		}
		seen[v.Key] = true
		vars = append(vars, v)
	}
	if err := crossCheck(name, data, vars); err != nil {
		return nil, err
	}
	return vars, nil
}

func checkBytes(name string, data []byte) error {
	if len(data) > MaxFileSize {
		return &ParseError{File: name, Reason: fmt.Sprintf("larger than %d bytes", MaxFileSize)}
	}
	line := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		fail := func(reason string) error { return &ParseError{File: name, Line: line, Reason: reason} }
		switch {
		case r == utf8.RuneError && size <= 1:
			return fail("not valid UTF-8")
		case r == 0:
			return fail("contains a NUL byte")
		case r == '\r':
			return fail("contains a carriage return (CRLF line ends?)")
		case r == '\n':
			line++
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return fail(fmt.Sprintf("contains the control character %U", r))
		}
		i += size
	}
	return nil
}

// assignment accepts a statement only if it is a single KEY=literal.
func assignment(st *syntax.Stmt, allowed []string) (Var, error) {
	switch {
	case st.Negated, st.Background, st.Coprocess, st.Disown:
		return Var{}, errors.New("only KEY=value lines are allowed")
	case st.Semicolon.IsValid():
		return Var{}, errors.New(`";" or "&" is not allowed`)
	case len(st.Redirs) > 0:
		return Var{}, errors.New("redirections are not allowed")
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) == 0 {
		return Var{}, errors.New("only KEY=value lines are allowed")
	}
	if len(call.Args) > 0 {
		return Var{}, errors.New("a value with spaces must be quoted: extra words would run as a command")
	}
	if len(call.Assigns) > 1 {
		return Var{}, errors.New("one assignment per line")
	}
	as := call.Assigns[0]
	switch {
	case as.Append:
		return Var{}, errors.New(`"+=" is not allowed`)
	case as.Naked, as.Name == nil:
		return Var{}, errors.New("only KEY=value lines are allowed")
	case as.Index != nil, as.Array != nil:
		return Var{}, errors.New("arrays are not allowed")
	}
	key := as.Name.Value
	if err := checkKey(key, allowed); err != nil {
		return Var{}, err
	}
	if as.Value == nil {
		return Var{Key: key}, nil
	}
	if err := literalWord(as.Value); err != nil {
		return Var{}, fmt.Errorf("%s: %w", key, err)
	}
	value, err := expand.Literal(&expand.Config{Env: expand.ListEnviron()}, as.Value)
	if err != nil {
		return Var{}, fmt.Errorf("%s: %w", key, err)
	}
	return Var{Key: key, Value: value}, nil
}

// literalWord accepts only words whose value needs no expansion: plain
// text, '…', and "…" holding plain text.
func literalWord(w *syntax.Word) error {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `\~`) {
				return errors.New(`unquoted "\" or "~" is not allowed`)
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return errors.New("$'…' strings are not allowed")
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return errors.New(`$"…" strings are not allowed`)
			}
			for _, in := range p.Parts {
				if _, ok := in.(*syntax.Lit); !ok {
					return fmt.Errorf("%s inside double quotes is not allowed", describe(in))
				}
			}
		default:
			return fmt.Errorf("%s is not allowed", describe(part))
		}
	}
	return nil
}

func describe(p syntax.WordPart) string {
	switch p.(type) {
	case *syntax.ParamExp:
		return "variable expansion"
	case *syntax.CmdSubst:
		return "command substitution"
	case *syntax.ArithmExp:
		return "arithmetic expansion"
	case *syntax.ProcSubst:
		return "process substitution"
	case *syntax.ExtGlob:
		return "extended glob"
	case *syntax.BraceExp:
		return "brace expansion"
	default:
		return fmt.Sprintf("%T", p)
	}
}
