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
// index twice) about 70 ms of CPU through encoding/json. A file in any
// other layout (edited by hand, written by the original) is read by
// encoding/json; both ways give the same index. A field added to index or
// indexEntry must be added here too (TestIndexCodecKnowsEveryField).

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
	b := make([]byte, 0, 64+len(ix.Sessions)*256)
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
			b = append(b, indexEntryClose...)
		}
		b = append(b, indexListClose...)
	}
	b = append(b, indexLastUpdated...)
	b = appendJSONString(b, ix.LastUpdated)
	return append(b, indexTail...)
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
	p := layoutReader{rest: data}
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

// layoutReader takes an index's layout apart from the front.
type layoutReader struct{ rest []byte }

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

// word takes w when the rest starts with it.
func (p *layoutReader) word(w string) bool {
	if !bytes.HasPrefix(p.rest, []byte(w)) {
		return false
	}
	p.rest = p.rest[len(w):]
	return true
}

// str takes a JSON string into s: as it is when it holds no escape and
// is valid UTF-8, else decoded by encoding/json.
func (p *layoutReader) str(s *string) bool {
	if len(p.rest) == 0 || p.rest[0] != '"' {
		return false
	}
	escaped := false
	for i := 1; i < len(p.rest); i++ {
		switch c := p.rest[i]; {
		case c == '\\':
			escaped = true
			i++
		case c < 0x20:
			return false
		case c == '"':
			tok := p.rest[:i+1]
			p.rest = p.rest[i+1:]
			if body := tok[1:i]; !escaped && utf8.Valid(body) {
				*s = string(body)
				return true
			}
			return json.Unmarshal(tok, s) == nil
		}
	}
	return false
}

// space says whether the rest is only what JSON allows after a value.
func (p *layoutReader) space() bool {
	return len(bytes.TrimLeft(p.rest, " \t\r\n")) == 0
}
