package main

import (
	"fmt"
	"strings"
	"syscall"
	"time"
)

// A prompt is the input line of a session and what it does with keys:
// it edits the line, starts a turn for each line submitted, holds the
// keys that come during a turn until it is over, gives those that come
// while a dialog is open to the dialog, and fires the idle notification
// when it has waited long enough.
type prompt struct {
	s      *session
	line   []rune
	queue  []key            // keys held while a turn is under way
	busy   bool             // a turn is under way
	answer chan<- bool      // where a dialog's answer goes, while one is open
	idle   <-chan time.Time // when the prompt has waited long enough
}

// loop runs the prompt on keys until the session ends, and returns the
// exit code: 0, or 129 when the terminal is gone, as on SIGHUP, and no
// hook is run.
func (s *session) loop(keys <-chan key) int {
	p := &prompt{s: s}
	s.screen.prompt("")
	p.waitIdle()
	for {
		select {
		case k := <-keys:
			if k.kind == keyHangup {
				return 128 + int(syscall.SIGHUP)
			}
			if p.key(k) {
				return 0
			}
		case d := <-s.dialogs:
			s.screen.println(fmt.Sprintf("Do you want to allow %s? 1. Yes  3. No (esc)", d.tool))
			p.answer = d.answer
		case exit := <-s.done:
			if exit || p.turnEnded() {
				return 0
			}
		case <-p.idle:
			p.idle = nil
			s.fire("Notification", map[string]any{"message": "Claude is waiting for your input", "notification_type": "idle_prompt"})
			s.screen.prompt(string(p.line))
		}
	}
}

// key takes one key from the terminal; it returns true when the session
// is over.
func (p *prompt) key(k key) bool {
	switch {
	case p.answer != nil:
		if yes, ok := dialogAnswer(k); ok {
			choice := "No"
			if yes {
				choice = "Yes"
			}
			p.s.screen.println(choice)
			p.answer <- yes
			p.answer = nil
		}
		if k.kind == keyClosed {
			p.queue = append(p.queue, k)
		}
	case p.busy:
		p.queue = append(p.queue, k)
	default:
		if p.edit(k) {
			return true
		}
		p.waitIdle()
	}
	return false
}

// turnEnded shows the prompt again and applies the keys held during the
// turn, which may start the next; it returns true when they end the
// session.
func (p *prompt) turnEnded() bool {
	p.busy = false
	p.s.screen.prompt("")
	for len(p.queue) > 0 && !p.busy {
		k := p.queue[0]
		p.queue = p.queue[1:]
		if p.edit(k) {
			return true
		}
	}
	p.waitIdle()
	return false
}

// waitIdle starts a new idle period, when no turn is under way.
func (p *prompt) waitIdle() {
	p.idle = nil
	if !p.busy {
		p.idle = time.After(p.s.idleAfter)
	}
}

// edit applies one key to the line; it returns true when the session is
// over.
func (p *prompt) edit(k key) bool {
	sc := p.s.screen
	switch k.kind {
	case keyRune:
		p.line = append(p.line, k.r)
		sc.echo(string(k.r))
	case keyPaste:
		p.line = append(p.line, []rune(k.text)...)
		sc.echo(k.text)
	case keyBackspace:
		if len(p.line) > 0 {
			p.line = p.line[:len(p.line)-1]
			sc.echo("\b \b")
		}
	case keyInterrupt:
		p.line = nil
		sc.echo("^C")
		sc.prompt("")
	case keyEnter:
		text := strings.TrimSpace(string(p.line))
		p.line = nil
		if text == "" {
			sc.prompt("")
			break
		}
		sc.echo("\n")
		p.busy = true
		go func() { p.s.done <- p.s.turn(text) }()
	case keyEOF, keyClosed:
		if k.kind == keyEOF && len(p.line) > 0 {
			break // Ctrl-D ends the session only on an empty line
		}
		sc.echo("\n")
		p.s.fire("SessionEnd", map[string]any{"reason": "other"})
		return true
	}
	return false
}

// dialogAnswer reads a key as an answer to a permission dialog: 1, y or
// Enter allow, 3, n or Escape deny, and the end of input denies. A paste
// answers with its first character; the rest of it is lost. ok is false
// for a key that is no answer.
func dialogAnswer(k key) (yes, ok bool) {
	r := k.r
	switch k.kind {
	case keyEnter:
		r = '\r'
	case keyEsc, keyClosed:
		return false, true
	case keyPaste:
		if k.text == "" {
			return false, false
		}
		r = []rune(k.text)[0]
		if r == '\n' {
			r = '\r'
		}
	case keyRune:
	default:
		return false, false
	}
	switch r {
	case '1', 'y', '\r':
		return true, true
	case '3', 'n':
		return false, true
	}
	return false, false
}
