package layout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"mas/tmux"
)

var bufferSeq atomic.Int64

// ErrUntypable is the error of a text that Send refuses to type.
var ErrUntypable = errors.New("cannot be typed as text")

// pasteMarkers are the sequences that start and end a bracketed paste, in
// their 7-bit (ESC [) and 8-bit (CSI, byte 0x9b, which UTF-8 U+009B also
// contains) forms. Inside a paste, an end marker tells the program that
// the paste is over: whatever follows would arrive as keys typed by the
// user, Enter included.
var pasteMarkers = []string{"\x1b[200~", "\x1b[201~", "\x9b200~", "\x9b201~"}

// CheckText returns an error wrapping ErrUntypable when text cannot be
// delivered as the text it is: a bracketed-paste start or end sequence,
// which would end the paste early and type the rest as keys; a NUL byte,
// which programs read as the end of a string; any other control character
// but tab and line feed (a terminal turns Ctrl-C, Ctrl-Z or ESC into a
// signal or a key, whatever the paste); and bytes that are not UTF-8.
// Such text is refused whole, never cleaned: a message that is not sent as
// written is not sent at all.
func CheckText(text string) error {
	for _, m := range pasteMarkers {
		if i := strings.Index(text, m); i >= 0 {
			return fmt.Errorf("message has the bracketed-paste sequence %q at byte %d, which would end the paste and type the rest as keys: %w", m, i, ErrUntypable)
		}
	}
	for i, r := range text {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(text[i:], "\uFFFD"):
			return fmt.Errorf("message is not valid UTF-8 at byte %d: %w", i, ErrUntypable)
		case r == 0:
			return fmt.Errorf("message has a NUL byte at byte %d: %w", i, ErrUntypable)
		case r == '\r':
			return fmt.Errorf("message has a carriage return at byte %d (CRLF line ends?), which a terminal reads as Enter: %w", i, ErrUntypable)
		case r < 0x20 && r != '\t' && r != '\n', r == 0x7f, r >= 0x80 && r < 0xa0:
			return fmt.Errorf("message has the control character %U at byte %d, which a terminal reads as a key or a signal: %w", r, i, ErrUntypable)
		}
	}
	return nil
}

// Send types text into each pane exactly as given, through a named paste
// buffer (so that key names, a leading "-", a final ";" and newlines are
// text, never keys or options), and presses Enter afterwards when enter is
// set. Text that CheckText refuses reaches no pane. panes are pane targets
// (PaneInfo.Target), so that tmux types only into a pane that is in the
// session its target names. All panes are served
// by one tmux call; if that fails, each pane is tried on its own so that
// the count of panes reached is exact. It returns how many panes got the
// text.
func Send(ctx context.Context, c tmux.Client, panes []string, text string, enter bool) (int, error) {
	missed, err := SendMissing(ctx, c, panes, text, enter)
	return len(panes) - len(missed), err
}

// SendMissing is Send that returns the panes the text did not reach: all
// of them when it reached none (text that CheckText refuses, a target
// that is not a pane's), and err, the first failure.
func SendMissing(ctx context.Context, c tmux.Client, panes []string, text string, enter bool) (missed []string, err error) {
	if err := CheckText(text); err != nil {
		return panes, err
	}
	for _, p := range panes {
		if !isPaneTarget(p) {
			return panes, fmt.Errorf("send: %q is not a pane of a session ($N:.%%N)", p)
		}
	}
	if len(panes) == 0 {
		return nil, nil
	}
	buf := fmt.Sprintf("mas-%d-%d", os.Getpid(), bufferSeq.Add(1))
	cmds := [][]string{{"load-buffer", "-b", buf, "-"}}
	for _, p := range panes {
		cmds = append(cmds, pasteTo(buf, p, enter)...)
	}
	cmds = append(cmds, []string{"delete-buffer", "-b", buf})
	if _, err := c.Batch(ctx, strings.NewReader(text), cmds...); err == nil {
		return nil, nil
	}
	// Something failed part-way: try pane by pane.
	c.Run(context.WithoutCancel(ctx), nil, "delete-buffer", "-b", buf)
	var firstErr error
	for _, p := range panes {
		cmds := append([][]string{{"load-buffer", "-b", buf, "-"}}, pasteTo(buf, p, enter)...)
		cmds = append(cmds, []string{"delete-buffer", "-b", buf})
		if _, err := c.Batch(ctx, strings.NewReader(text), cmds...); err != nil {
			c.Run(context.WithoutCancel(ctx), nil, "delete-buffer", "-b", buf)
			if firstErr == nil {
				firstErr = err
			}
			missed = append(missed, p)
		}
	}
	return missed, firstErr
}

// pasteTo pastes buffer buf into pane p as a bracketed paste when the
// program asked for one, keeping line feeds as they are (-r).
func pasteTo(buf, p string, enter bool) [][]string {
	cmds := [][]string{{"paste-buffer", "-p", "-r", "-b", buf, "-t", p}}
	if enter {
		cmds = append(cmds, []string{"send-keys", "-t", p, "Enter"})
	}
	return cmds
}
