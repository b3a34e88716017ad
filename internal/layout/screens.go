package layout

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"mas/tmux"
)

// Screens reads the last n rows of panes' screens, plain (Capture) or
// styled (CaptureStyled); SnapshotScreens reads some of them with the
// listing of the panes, in the same tmux process.
type Screens struct {
	n     int
	flags string              // capture-pane's flags: plainFlags or styledFlags
	ahead map[string][]string // rows read with the listing, by pane target
}

// NewScreens is a reader of the last n rows of panes' screens, styled or
// not, which has read none yet.
func NewScreens(n int, styled bool) *Screens {
	s := &Screens{n: n, flags: plainFlags}
	if styled {
		s.flags = styledFlags
	}
	return s
}

// Reads tells whether s reads the last n rows, styled or not; a nil s
// reads none.
func (s *Screens) Reads(n int, styled bool) bool {
	return s != nil && s.n == n && (s.flags == styledFlags) == styled
}

// rows returns the rows of panes as capture-pane run with flags gives
// them: those read ahead with these flags, and the others read by one tmux
// process (capture).
func (s *Screens) rows(ctx context.Context, c tmux.Client, panes []string, flags string) (map[string][]string, error) {
	if s.flags != flags || len(s.ahead) == 0 {
		return capture(ctx, c, panes, s.n, flags)
	}
	got := map[string][]string{}
	var rest []string
	for _, p := range panes {
		if rows, ok := s.ahead[p]; ok {
			got[p] = rows
		} else {
			rest = append(rest, p)
		}
	}
	if len(rest) == 0 {
		return got, nil
	}
	more, err := capture(ctx, c, rest, s.n, flags)
	for p, rows := range more {
		got[p] = rows
	}
	return got, err
}

// SnapshotScreens is Snapshot that also reads the screens of the panes of
// one session, in the same tmux process: after the listing, "run-shell
// -C" runs a command list that a format loop over the server's sessions,
// windows and panes makes (tmux 3.2), one capture per pane as Capture
// reads it. The session is the tmux session of that name, when it is one
// checkName allows, else every session whose name starts with "mas-"; of
// those, only a session whose marks say it is root's, or say nothing
// (Owner), so that no screen of another root's session is read unless a
// command selects it. The panes of the session a command then selects from
// the listing are read already (Screens), and a pane that was not, the
// Screens read later. A root that a format cannot hold as it is (see
// plainPath) reads no screen ahead. Only
// tmux's ids go into that command list, never a name, a title or any value
// a program controls; the listing is framed as listing frames it, and the
// screens are ended by markers of a random word (see capture), so that no
// value or text can be taken for a field, a pane or a screen.
//
// When tmux cannot run it (an older one), the panes are listed alone, by
// Snapshot, and nothing is read ahead.
func SnapshotScreens(ctx context.Context, c tmux.Client, session, root string, n int, styled bool) ([]PaneInfo, *Screens, error) {
	s := NewScreens(n, styled)
	if n < 1 || n > MaxCaptureLines {
		return nil, nil, fmt.Errorf("%w: %d", ErrLines, n)
	}
	if !plainPath(root) {
		panes, err := Snapshot(ctx, c)
		return panes, s, err
	}
	word, nonce := "mas"+rand.Text(), rand.Text()
	end := word + "end"
	out, err := c.Batch(ctx, nil,
		[]string{"list-panes", "-a", "-F", frame(word, snapshotFields)},
		[]string{"display-message", "-p", end},
		[]string{"run-shell", "-C", s.loop(session, root, nonce)})
	switch {
	case err == nil, tmux.PanesGone(err):
	case isMissing(err):
		return nil, s, nil
	default:
		panes, err := Snapshot(ctx, c)
		return panes, s, err
	}
	list, screens, ok := bytes.Cut(out, []byte(end+"\n"))
	if !ok || len(list) > 0 && list[len(list)-1] != '\n' {
		return nil, nil, fmt.Errorf("tmux list-panes: unreadable listing %.200q", out)
	}
	records, err := parseListing(list, word, "list-panes", len(snapshotFields))
	if err != nil {
		return nil, nil, err
	}
	panes, err := parsePanes(records)
	if err != nil {
		return nil, nil, err
	}
	s.ahead = markedScreens(screens, nonce)
	return panes, s, nil
}

// loop is the format that "run-shell -C" expands into the command list
// of SnapshotScreens: per pane of the session (see there), its capture in
// a command list of its own, which a pane gone meanwhile fails alone, and
// a marker line of nonce and the pane's target.
func (s *Screens) loop(session, root, nonce string) string {
	match := "#{m:mas-*,#{session_name}}"
	if checkName(session) == nil {
		match = "#{==:#{session_name}," + session + "}"
	}
	owner := "#{" + RootOption + "}"
	match = "#{&&:" + match + ",#{||:#{==:" + owner + ",},#{==:" + owner + "," + quoteOption(root) + "}}}"
	// display-message reads its text with strftime(3) too, where "%4"
	// is a field 4 wide: the marker holds the pane's number without "%".
	each := fmt.Sprintf(`if-shell -F 1 "capture-pane %s -t '#{session_id}:.#{pane_id}' -S -%d ; `+
		`display-message -p '%s #{session_id} #{s/%%//:pane_id}'" ; `, s.flags, s.n, nonce)
	return "#{S:#{?" + match + ",#{W:#{P:" + each + "}},}}"
}

// markedScreens reads the screens that SnapshotScreens's command list
// printed: each pane's rows, then its marker: nonce, the session's id and
// the pane's number ($N N).
func markedScreens(out []byte, nonce string) map[string][]string {
	got := map[string][]string{}
	var block []string
	for line := range strings.Lines(string(out)) {
		line = strings.TrimSuffix(line, "\n")
		marked, ok := strings.CutPrefix(line, nonce+" ")
		session, pane, _ := strings.Cut(marked, " ")
		target := session + ":.%" + pane
		if !ok || !isPaneTarget(target) {
			block = append(block, line)
			continue
		}
		got[target] = block
		block = nil
	}
	return got
}

// plainPath tells whether path is absolute and holds only characters that
// a tmux format compares as they are: letters, digits, "/", ".", "_", "-",
// "+" and spaces.
func plainPath(path string) bool {
	for _, c := range path {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+ ", c)) {
			return false
		}
	}
	return strings.HasPrefix(path, "/")
}
