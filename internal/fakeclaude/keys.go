package main

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// A kind is what a key, or a run of keys, means to the prompt.
type kind int

const (
	keyRune      kind = iota // a printable character, in key.r
	keyEnter                 // CR or LF outside a paste
	keyEsc                   // a lone ESC
	keyEOF                   // Ctrl-D
	keyInterrupt             // Ctrl-C
	keyBackspace             // DEL or Ctrl-H
	keyPaste                 // a whole bracketed paste, in key.text
	keyClosed                // stdin, not a terminal, gave no more input
	keyHangup                // the terminal is gone
)

// A key is one thing read from the terminal.
type key struct {
	kind kind
	r    rune
	text string
}

const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// A keyReader turns the bytes of a terminal in raw mode into keys. It
// keeps what a read cut in two (an escape sequence, a UTF-8 character,
// a paste) until the next read completes it.
type keyReader struct {
	pending []byte // bytes of an unfinished sequence or character
	inPaste bool
	paste   []byte // the text of the paste so far
}

// feed takes the bytes of one read and returns the keys they finish.
// An ESC that ends a read is the Escape key: a terminal writes an escape
// sequence in one piece.
func (kr *keyReader) feed(b []byte) []key {
	data := append(kr.pending, b...)
	kr.pending = nil
	var keys []key
	for len(data) > 0 {
		if kr.inPaste {
			i := bytes.Index(data, []byte(pasteEnd))
			if i < 0 {
				keep := partialSuffix(data, pasteEnd)
				kr.paste = append(kr.paste, data[:len(data)-keep]...)
				kr.pending = append([]byte(nil), data[len(data)-keep:]...)
				return keys
			}
			kr.paste = append(kr.paste, data[:i]...)
			keys = append(keys, key{kind: keyPaste, text: pasteText(kr.paste)})
			kr.inPaste, kr.paste = false, nil
			data = data[i+len(pasteEnd):]
			continue
		}
		c := data[0]
		switch {
		case c == 0x1b:
			n, complete := escapeLength(data)
			if !complete {
				kr.pending = append([]byte(nil), data...)
				return keys
			}
			switch seq := string(data[:n]); {
			case seq == pasteStart:
				kr.inPaste = true
			case n == 1:
				keys = append(keys, key{kind: keyEsc})
			}
			data = data[n:]
			continue
		case c == '\r' || c == '\n':
			keys = append(keys, key{kind: keyEnter})
		case c == 0x04:
			keys = append(keys, key{kind: keyEOF})
		case c == 0x03:
			keys = append(keys, key{kind: keyInterrupt})
		case c == 0x7f || c == 0x08:
			keys = append(keys, key{kind: keyBackspace})
		case c == '\t':
			keys = append(keys, key{kind: keyRune, r: '\t'})
		case c < 0x20:
			// Other control keys mean nothing here.
		default:
			if !utf8.FullRune(data) {
				kr.pending = append([]byte(nil), data...)
				return keys
			}
			r, n := utf8.DecodeRune(data)
			keys = append(keys, key{kind: keyRune, r: r})
			data = data[n:]
			continue
		}
		data = data[1:]
	}
	return keys
}

// escapeLength is the length of the escape sequence at the start of data,
// which begins with ESC, and whether data holds all of it. A lone ESC at
// the end of data is the Escape key, of length 1. ESC [ starts a CSI
// sequence, which ends at a byte from '@' to '~'; ESC O (SS3) has one
// more byte. ESC before anything else is the Escape key too, and what
// follows is read as keys of its own.
func escapeLength(data []byte) (n int, complete bool) {
	if len(data) == 1 {
		return 1, true
	}
	switch data[1] {
	case '[':
		for i := 2; i < len(data); i++ {
			if data[i] >= 0x40 && data[i] <= 0x7e {
				return i + 1, true
			}
		}
		return 0, false
	case 'O':
		if len(data) < 3 {
			return 0, false
		}
		return 3, true
	}
	return 1, true
}

// partialSuffix is the length of the longest end of data that is the
// start of marker, shorter than marker.
func partialSuffix(data []byte, marker string) int {
	for n := min(len(marker)-1, len(data)); n > 0; n-- {
		if strings.HasPrefix(marker, string(data[len(data)-n:])) {
			return n
		}
	}
	return 0
}

// pasteText is the text of a paste with its line ends as LF: tmux's
// paste-buffer without -r sends each LF as a CR.
func pasteText(b []byte) string {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}
