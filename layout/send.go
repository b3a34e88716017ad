package layout

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"mas/tmux"
)

var bufferSeq atomic.Int64

// Send types text into each pane exactly as given, through a named paste
// buffer (so that key names, a leading "-", a final ";" and newlines are
// text, never keys or options), and presses Enter afterwards when enter is
// set. All panes are served by one tmux call; if that fails, each pane is
// tried on its own so that the count of panes reached is exact. It returns
// how many panes got the text.
func Send(ctx context.Context, c tmux.Client, panes []string, text string, enter bool) (int, error) {
	if len(panes) == 0 {
		return 0, nil
	}
	buf := fmt.Sprintf("mas-%d-%d", os.Getpid(), bufferSeq.Add(1))
	cmds := [][]string{{"load-buffer", "-b", buf, "-"}}
	for _, p := range panes {
		cmds = append(cmds, pasteTo(buf, p, enter)...)
	}
	cmds = append(cmds, []string{"delete-buffer", "-b", buf})
	if _, err := c.Batch(ctx, strings.NewReader(text), cmds...); err == nil {
		return len(panes), nil
	}
	// Something failed part-way: try pane by pane and count.
	c.Run(context.WithoutCancel(ctx), nil, "delete-buffer", "-b", buf)
	ok := 0
	var firstErr error
	for _, p := range panes {
		cmds := append([][]string{{"load-buffer", "-b", buf, "-"}}, pasteTo(buf, p, enter)...)
		cmds = append(cmds, []string{"delete-buffer", "-b", buf})
		if _, err := c.Batch(ctx, strings.NewReader(text), cmds...); err != nil {
			c.Run(context.WithoutCancel(ctx), nil, "delete-buffer", "-b", buf)
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		ok++
	}
	return ok, firstErr
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
