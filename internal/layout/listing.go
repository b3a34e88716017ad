package layout

import (
	"context"
	"crypto/rand"
	"fmt"
	"strconv"
	"strings"

	"mas/tmux"
)

// listing runs a tmux command that prints a -F format once per pane or
// session (list-panes, list-sessions) and returns the values of fields
// (formats such as "#{pane_id}"), one slice per record, in tmux's order.
//
// tmux prints values as they are: a program's argv[0]
// (#{pane_current_command}), a directory (#{session_path}) or a user
// option may hold tabs and newlines, and output split by those would take
// the rest of such a value for records of its own: a pane of one session
// listed in another. So every field is framed by a word drawn at random
// for this call, which no value can hold but by chance, and the output is
// split by that word alone; output of any other shape is an error, never
// read in part.
func listing(ctx context.Context, c tmux.Client, cmd []string, fields ...string) ([][]string, error) {
	word := "mas" + rand.Text()
	out, err := c.Run(ctx, nil, append(cmd, "-F", frame(word, fields))...)
	if err != nil {
		return nil, err
	}
	return parseListing(out, word, cmd[0], len(fields))
}

// frame is the -F format of a listing whose fields are framed by word.
func frame(word string, fields []string) string {
	return word + strings.Join(fields, word) + word
}

// parseListing reads the output of a listing (see listing) of n fields a
// record, framed by word; cmd names the tmux command for errors.
func parseListing(out []byte, word, cmd string, n int) ([][]string, error) {
	// Each record prints as word f1 word f2 … word fn word "\n": split by
	// the word, the output is "" and then, per record, its n fields and
	// "\n".
	parts := strings.Split(string(out), word)
	if parts[0] != "" || (len(parts)-1)%(n+1) != 0 {
		return nil, fmt.Errorf("tmux %s: unreadable listing %.200q", cmd, out)
	}
	var records [][]string
	for rest := parts[1:]; len(rest) > 0; rest = rest[n+1:] {
		if rest[n] != "\n" {
			return nil, fmt.Errorf("tmux %s: unreadable listing %.200q", cmd, out)
		}
		records = append(records, rest[:n])
	}
	return records, nil
}

// isID tells whether s is a tmux id with the sigil: "$" for a session, "@"
// for a window, "%" for a pane, then a number.
func isID(s string, sigil byte) bool {
	if len(s) < 2 || s[0] != sigil {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// number reads a field of a listing that tmux prints as a number (an
// index, a pid, a time), never empty.
func number(field, name string) (int64, error) {
	n, err := strconv.ParseInt(field, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s %q is not a number", name, field)
	}
	return n, nil
}
