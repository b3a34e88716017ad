package isolated

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// The index is written in the layout json.MarshalIndent gives it with an
// indent of two spaces, byte for byte, and a file in that layout is read
// back by matching that layout from the front, without encoding/json's
// reflection: at 5,000 sessions the two cost a start (which writes the
// index twice) about 70 ms of CPU through encoding/json. Recording one
// session in such a file changes that session's entry in place, the
// others' bytes copied (editIndexLayout). A file in any other layout
// (edited by hand, written by the original) is read by encoding/json;
// every way gives the same index. A field added to index or indexEntry
// must be added here too, to marshalIndex, indexSize, entry and
// writtenEntry (TestIndexCodecKnowsEveryField).

// What comes between the values of the layout: the fields' names, the
// punctuation and the indent.
const (
	indexHead        = "{\n  \"version\": "
	indexSessions    = ",\n  \"sessions\": "
	indexEntryOpen   = "\n    {\n      \"sessionId\": "
	indexTmux        = ",\n      \"tmuxSession\": "
	indexStatus      = ",\n      \"status\": "
	indexCreatedAt   = ",\n      \"createdAt\": "
	indexWorkingDir  = ",\n      \"workingDir\": "
	indexActivity    = ",\n      \"lastActivity\": "
	indexEntryClose  = "\n    }"
	indexListClose   = "\n  ]"
	indexLastUpdated = ",\n  \"lastUpdated\": "
	indexTail        = "\n}"
)

// marshalIndex is json.MarshalIndent(ix, "", "  "), made directly.
func marshalIndex(ix *index) []byte {
	b := make([]byte, 0, indexSize(ix))
	b = append(b, indexHead...)
	b = appendJSONString(b, ix.Version)
	b = append(b, indexSessions...)
	switch {
	case ix.Sessions == nil:
		b = append(b, "null"...)
	case len(ix.Sessions) == 0:
		b = append(b, "[]"...)
	default:
		b = append(b, '[')
		for i, e := range ix.Sessions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendEntry(b, e)
		}
		b = append(b, indexListClose...)
	}
	b = append(b, indexLastUpdated...)
	b = appendJSONString(b, ix.LastUpdated)
	return append(b, indexTail...)
}

// appendEntry appends e's entry in marshalIndex's layout, from the line
// break before its "{" to its "}".
func appendEntry(b []byte, e indexEntry) []byte {
	b = append(b, indexEntryOpen...)
	b = appendJSONString(b, e.SessionID)
	b = append(b, indexTmux...)
	b = appendJSONString(b, e.TmuxSession)
	b = append(b, indexStatus...)
	b = appendJSONString(b, string(e.Status))
	b = append(b, indexCreatedAt...)
	b = appendJSONString(b, e.CreatedAt)
	b = append(b, indexWorkingDir...)
	b = appendJSONString(b, e.WorkingDir)
	if e.LastActivity != "" {
		b = append(b, indexActivity...)
		b = appendJSONString(b, e.LastActivity)
	}
	return append(b, indexEntryClose...)
}

// indexSize is at least the size of ix in marshalIndex's layout when no
// string needs an escape: the capacity of the one buffer it is written
// into.
func indexSize(ix *index) int {
	const quotes = 2
	n := len(indexHead+indexSessions+"[]"+indexListClose+indexLastUpdated+indexTail) + len(ix.Version) + len(ix.LastUpdated) + 2*quotes
	for _, e := range ix.Sessions {
		n += len(","+indexEntryOpen+indexTmux+indexStatus+indexCreatedAt+indexWorkingDir+indexActivity+indexEntryClose) +
			len(e.SessionID) + len(e.TmuxSession) + len(e.Status) + len(e.CreatedAt) + len(e.WorkingDir) + len(e.LastActivity) + 6*quotes
	}
	return n
}

// appendJSONString appends s as encoding/json writes it: as it is when it
// holds only printable ASCII that needs no escape (what ids, times and
// most paths are), else by encoding/json itself.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// unmarshalIndex reads data as json.Unmarshal would into an index.
func unmarshalIndex(data []byte) (index, error) {
	if ix, ok := parseIndexLayout(data); ok {
		return ix, nil
	}
	var ix index
	err := json.Unmarshal(data, &ix)
	return ix, err
}

// parseIndexLayout reads an index in marshalIndex's layout; false for
// anything else, which may still be JSON.
func parseIndexLayout(data []byte) (index, bool) {
	p := layoutReader{data: data}
	var ix index
	if !p.word(indexHead) || !p.str(&ix.Version) || !p.word(indexSessions) {
		return index{}, false
	}
	switch {
	case p.word("null"):
	case p.word("[]"):
		ix.Sessions = []indexEntry{}
	case p.word("["):
		for {
			var e indexEntry
			if !p.entry(&e) {
				return index{}, false
			}
			ix.Sessions = append(ix.Sessions, e)
			if !p.word(",") {
				break
			}
		}
		if !p.word(indexListClose) {
			return index{}, false
		}
	default:
		return index{}, false
	}
	if !p.word(indexLastUpdated) || !p.str(&ix.LastUpdated) || !p.word(indexTail) || !p.space() {
		return index{}, false
	}
	return ix, true
}

// editIndexLayout is the index data holds with e recorded (recorded) and
// stamped lastUpdated, in pieces to be written one after the other, most
// of them data's own bytes: the other entries are checked and copied, not
// decoded. That takes data in marshalIndex's layout with every string as
// marshalIndex writes it, so that the result is what marshalIndex would
// make of the changed index; false for any other data.
func editIndexLayout(data []byte, e indexEntry, lastUpdated string) ([][]byte, bool) {
	p := layoutReader{data: data}
	if !p.word(indexHead) || !p.asWritten() || !p.word(indexSessions) {
		return nil, false
	}
	list := p.at
	// The entries run from first to last; e's, when there, from at[0]
	// to at[1].
	first, last, at := 0, 0, [2]int{-1, -1}
	switch {
	case p.word("null"), p.word("[]"):
	case p.word("["):
		first = p.at
		for {
			start := p.at
			id, ok := p.writtenEntry()
			if !ok {
				return nil, false
			}
			if at[0] < 0 && string(id) == e.SessionID {
				at = [2]int{start, p.at}
			}
			if !p.word(",") {
				break
			}
		}
		last = p.at
		if !p.word(indexListClose) {
			return nil, false
		}
	default:
		return nil, false
	}
	if !p.word(indexLastUpdated) || !p.asWritten() || !p.word(indexTail) || !p.space() {
		return nil, false
	}

	var changed []byte // e's entry as it is to be, nil when taken out
	switch {
	case e.Status == "":
	case at[0] >= 0:
		var old indexEntry
		r := layoutReader{data: data[:at[1]], at: at[0]}
		if !r.entry(&old) {
			return nil, false
		}
		changed = appendEntry(nil, recorded([]indexEntry{old}, e)[0])
	default:
		changed = appendEntry(nil, e)
	}
	end := appendJSONString([]byte(indexListClose+indexLastUpdated), lastUpdated)
	end = append(end, indexTail...)
	empty := append([]byte("[]"), end[len(indexListClose):]...)
	switch {
	case first == 0 && changed == nil: // no entries, none added
		return [][]byte{data[:list], empty}, true
	case first == 0:
		return [][]byte{data[:list], []byte("["), changed, end}, true
	case at[0] < 0 && changed == nil: // an entry that is not there taken out
		return [][]byte{data[:last], end}, true
	case at[0] < 0:
		return [][]byte{data[:last], []byte(","), changed, end}, true
	case changed != nil:
		return [][]byte{data[:at[0]], changed, data[at[1]:last], end}, true
	case at[0] == first && at[1] == last: // the only entry taken out
		return [][]byte{data[:list], empty}, true
	case at[0] == first: // the first: with the comma after it
		return [][]byte{data[:at[0]], data[at[1]+1 : last], end}, true
	}
	// Another one: with the comma before it.
	return [][]byte{data[:at[0]-1], data[at[1]:last], end}, true
}

// layoutReader takes an index's layout apart from the front: at is where
// it has got to in data.
type layoutReader struct {
	data []byte
	at   int
}

// entry takes one session's entry into e.
func (p *layoutReader) entry(e *indexEntry) bool {
	return p.word(indexEntryOpen) && p.str(&e.SessionID) &&
		p.word(indexTmux) && p.str(&e.TmuxSession) &&
		p.word(indexStatus) && p.str((*string)(&e.Status)) &&
		p.word(indexCreatedAt) && p.str(&e.CreatedAt) &&
		p.word(indexWorkingDir) && p.str(&e.WorkingDir) &&
		(!p.word(indexActivity) || p.str(&e.LastActivity)) &&
		p.word(indexEntryClose)
}

// writtenEntry passes over one session's entry whose strings are all as
// marshalIndex writes them, and returns its sessionId.
func (p *layoutReader) writtenEntry() ([]byte, bool) {
	if !p.word(indexEntryOpen) {
		return nil, false
	}
	id, ok := p.written()
	ok = ok && p.word(indexTmux) && p.asWritten() &&
		p.word(indexStatus) && p.asWritten() &&
		p.word(indexCreatedAt) && p.asWritten() &&
		p.word(indexWorkingDir) && p.asWritten()
	if ok && p.word(indexActivity) {
		// marshalIndex leaves out an empty lastActivity (omitempty).
		activity, written := p.written()
		ok = written && len(activity) > 0
	}
	return id, ok && p.word(indexEntryClose)
}

// word takes w when the rest starts with it.
func (p *layoutReader) word(w string) bool {
	if !bytes.HasPrefix(p.data[p.at:], []byte(w)) {
		return false
	}
	p.at += len(w)
	return true
}

// token passes over a JSON string: tok is all of it, quotes and all.
// escaped says it holds an escape, plain that it holds nothing
// appendJSONString writes otherwise than as it is: no escape, no <, > or
// &, and only valid UTF-8 other than U+2028 and U+2029.
func (p *layoutReader) token() (tok []byte, escaped, plain, ok bool) {
	rest := p.data[p.at:]
	if len(rest) == 0 || rest[0] != '"' {
		return nil, false, false, false
	}
	html, ascii := false, true
	for i := 1; i < len(rest); i++ {
		switch c := rest[i]; {
		case c < 0x20:
			return nil, false, false, false
		case c == '\\':
			escaped = true
			i++
		case c == '<' || c == '>' || c == '&':
			html = true
		case c >= utf8.RuneSelf:
			ascii = false
		case c == '"':
			tok, body := rest[:i+1], rest[1:i]
			p.at += i + 1
			// encoding/json escapes U+2028 and U+2029, and writes
			// U+FFFD for bytes that are not UTF-8.
			plain = !escaped && !html && (ascii || utf8.Valid(body) &&
				!bytes.Contains(body, []byte("\u2028")) && !bytes.Contains(body, []byte("\u2029")))
			return tok, escaped, plain, true
		}
	}
	return nil, false, false, false
}

// str takes a JSON string into s: as it is when it holds no escape and
// is valid UTF-8, else decoded by encoding/json.
func (p *layoutReader) str(s *string) bool {
	tok, escaped, _, ok := p.token()
	if !ok {
		return false
	}
	if body := tok[1 : len(tok)-1]; !escaped && utf8.Valid(body) {
		*s = string(body)
		return true
	}
	return json.Unmarshal(tok, s) == nil
}

// written passes over a JSON string that is as marshalIndex writes it
// and returns its value: its own bytes when it needs no escape, what
// encoding/json reads of it when it has escapes that appendJSONString
// would write. false for any other string, which could read the same and
// still be written otherwise.
func (p *layoutReader) written() ([]byte, bool) {
	tok, _, plain, ok := p.token()
	switch {
	case !ok:
		return nil, false
	case plain:
		return tok[1 : len(tok)-1], true
	}
	var v string
	if json.Unmarshal(tok, &v) != nil || !bytes.Equal(appendJSONString(nil, v), tok) {
		return nil, false
	}
	return []byte(v), true
}

// asWritten passes over a JSON string that is as marshalIndex writes it.
func (p *layoutReader) asWritten() bool {
	_, ok := p.written()
	return ok
}

// space says whether the rest is only what JSON allows after a value.
func (p *layoutReader) space() bool {
	return len(bytes.TrimLeft(p.data[p.at:], " \t\r\n")) == 0
}
