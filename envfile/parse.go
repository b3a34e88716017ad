package envfile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

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

// Parse reads file content without executing anything, to the values
// bash gives when it sources the content. It accepts blank lines, # comments
// (on lines of their own or after an assignment) and lines of exactly one
// plain assignment KEY=value of an allowed key, where value is any
// concatenation of literal shell quoting: unquoted text with backslash
// escapes (it\'s\ x), '…' strings, and "…" strings with the \" \$ \\ \`
// escapes. That covers what bash's printf %q, Python's shlex.quote and
// Encode print for printable values.
//
// It refuses everything a shell would do more with: parameter, command,
// arithmetic and process substitution, an unquoted $ (quote it), tilde
// expansion (an unquoted ~ at the start of the value or right after a
// quoted part, or after an unquoted : or =), $'…' and $"…", line continuations,
// several commands, redirections, extra words, export, arrays, +=, keys
// outside allowed, values that Encode could not write back, and NUL, CR,
// control characters and invalid UTF-8 anywhere. Errors name the line.
//
// Parse evaluates the words itself with bash's rules and never calls
// mvdan's expand package: expand.Literal keeps unquoted backslashes. Parse
// does not consult go-envparse, whose dialect differs from the shell's
// (no "\$" escape, # starts a comment inside a word): a file is read as
// the shell reads it. go-envparse only cross-checks what Encode writes, so
// that the files mas writes also read right in tools that use it.
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
	if line := continuation(data); line > 0 {
		return nil, &ParseError{File: name, Line: line, Reason: `a line continuation ("\" at the end of a line) is not allowed`}
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
	return vars, nil
}

// continuation returns the line of the first backslash-newline that bash
// would join to the next line, or 0: outside single quotes and comments, a
// backslash escapes the next byte, and before a newline it removes both.
func continuation(data []byte) int {
	line := 1
	const (
		plain = iota
		single
		double
		comment
	)
	state, wordStart := plain, true
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == '\n' {
			line++
		}
		switch state {
		case plain, double:
			atStart := wordStart
			wordStart = state == plain && strings.IndexByte(" \t\n;&|()<>", c) >= 0
			switch {
			case c == '\\' && i+1 < len(data):
				if data[i+1] == '\n' {
					return line
				}
				i++
			case c == '"' && state == plain:
				state = double
			case c == '"':
				state = plain
			case c == '\'' && state == plain:
				state = single
			case c == '#' && state == plain && atStart:
				state = comment
			}
		case single:
			if c == '\'' {
				state = plain
			}
		case comment:
			if c == '\n' {
				state, wordStart = plain, true
			}
		}
	}
	return 0
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
	value, err := literal(as.Value)
	if err != nil {
		return Var{}, fmt.Errorf("%s: %w", key, err)
	}
	if err := checkValue(value); err != nil {
		return Var{}, fmt.Errorf("value of %s: %w", key, err)
	}
	return Var{Key: key, Value: value}, nil
}

// literal returns the value bash gives the assigned word w, if w is only
// literal text: unquoted text with backslash escapes, '…', and "…" holding
// text with backslash escapes. Anything that bash would expand is refused.
func literal(w *syntax.Word) (string, error) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if err := unquoted(&b, p.Value); err != nil {
				return "", err
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", errors.New("$'…' strings are not allowed")
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", errors.New(`$"…" strings are not allowed`)
			}
			for _, in := range p.Parts {
				lit, ok := in.(*syntax.Lit)
				if !ok {
					return "", fmt.Errorf("%s inside double quotes is not allowed", describe(in))
				}
				if err := doubleQuoted(&b, lit.Value); err != nil {
					return "", err
				}
			}
		default:
			return "", fmt.Errorf("%s is not allowed", describe(part))
		}
	}
	return b.String(), nil
}

// unquoted appends the value of unquoted text s, as the source has it: a
// backslash quotes the next character.
func unquoted(b *strings.Builder, s string) error {
	prev := byte(0) // the previous unquoted character of s, 0 if quoted
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 == len(s) {
				return errors.New(`a "\" at the end of the value is not allowed`)
			}
			i++
			b.WriteByte(s[i])
			prev = 0
		case '~':
			// bash expands ~ at the start of an assignment's value and after
			// an unquoted ":"; after "=" or a quoted part it is refused too,
			// to be safe in every shell and mode.
			if i == 0 || prev == ':' || prev == '=' {
				return errors.New(`an unquoted "~" is not allowed here: it would be expanded (quote it)`)
			}
			b.WriteByte(c)
			prev = c
		case '$', '`':
			return fmt.Errorf("an unquoted %q is not allowed (quote it)", c)
		default:
			b.WriteByte(c)
			prev = c
		}
	}
	return nil
}

// doubleQuoted appends the value of text s found inside "…": a backslash
// quotes only $ ` " and \, and stays before any other character.
func doubleQuoted(b *strings.Builder, s string) error {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 < len(s) && strings.IndexByte("$`\"\\", s[i+1]) >= 0 {
				i++
			}
			b.WriteByte(s[i])
		case '$', '`':
			return fmt.Errorf(`an unescaped %q inside double quotes is not allowed`, c)
		default:
			b.WriteByte(c)
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
