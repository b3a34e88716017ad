package layout

import (
	"context"
	"fmt"
	"strconv"

	"mas/tmux"
)

// AttentionOption is the session option that names the agents that need a
// person ("needs you: 21 asking, 11 12 done"); the session's status line
// shows it when it is set.
const AttentionOption = "@mas_attention"

// defaultStatusRight is tmux's own status-right (3.2 and later): the
// pane's title, the time and the date.
const defaultStatusRight = `#{?window_bigger,[#{window_offset_x}#,#{window_offset_y}] ,}"#{=21:pane_title}" %H:%M %d-%b-%y`

// statusRight shows AttentionOption, highlighted, before tmux's default.
const statusRight = "#{?" + AttentionOption + ",#[reverse] #{" + AttentionOption + "} #[noreverse] ,}" + defaultStatusRight

// statusRightLength leaves room for all thirteen agents and the default.
const statusRightLength = 120

// setStatusLine is the commands that make session name's status line show
// AttentionOption.
func setStatusLine(name string) [][]string {
	target := tmux.SessionWindows(name)
	return [][]string{
		{"set-option", "-t", target, "status-right", statusRight},
		{"set-option", "-t", target, "status-right-length", strconv.Itoa(statusRightLength)},
	}
}

// SetAttention sets AttentionOption of the session whose tmux id ($N) is
// id to text, taken literally ("#" is escaped), or unsets it when text is
// "". A session that has ended is not an error.
func SetAttention(ctx context.Context, c tmux.Client, id, text string) error {
	if !isID(id, '$') {
		return fmt.Errorf("set %s: %q is not a tmux session id", AttentionOption, id)
	}
	args := []string{"set-option", "-t", id, AttentionOption, tmux.EscapeFormat(text)}
	if text == "" {
		args = []string{"set-option", "-u", "-t", id, AttentionOption}
	}
	_, err := c.Run(ctx, nil, args...)
	if err != nil && isMissing(err) {
		return nil
	}
	return err
}
