package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxAnswer caps the line ask reads: an answer is a word or a name.
const maxAnswer = 4096

// errNoAnswer is the end of stdin before a whole line: the question has no
// answer.
var errNoAnswer = errors.New("stdin ended before an answer")

// ask puts a question and returns the answer, one line of stdin, as the
// original's read did: whether or not stdin is a terminal (yes | mas
// stop, echo name | mas init), and with the prompt on stderr only when it
// is one. The answer is the line without its newline and without the
// spaces and tabs around it. It reads one byte at a time, so that what
// follows the line is left to whoever reads stdin next. The end of stdin
// before a newline, even after some text, is errNoAnswer, as it made read
// fail.
func (cl *CommandLine) ask(prompt string) (string, error) {
	if cl.io.StdinTTY {
		fmt.Fprint(cl.io.Stderr, prompt)
	}
	var line []byte
	b := make([]byte, 1)
	for {
		n, err := cl.io.Stdin.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				return strings.Trim(string(line), " \t"), nil
			}
			if len(line) == maxAnswer {
				return "", fmt.Errorf("an answer of more than %d bytes on stdin", maxAnswer)
			}
			line = append(line, b[0])
			continue
		}
		switch {
		case errors.Is(err, io.EOF):
			return "", errNoAnswer
		case err != nil:
			return "", fmt.Errorf("read the answer: %w", err)
		}
	}
}

// isYes tells whether the answer to a y/N question says yes: y or yes, in
// any case. The original took y or Y only, and cancelled a "yes" (issue 30).
func isYes(answer string) bool {
	return strings.EqualFold(answer, "y") || strings.EqualFold(answer, "yes")
}
