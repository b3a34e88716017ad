package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
)

// sessionsJSON writes GET /sessions as writeJSON would write
// {"sessions": list, "total": len(list)}, byte for byte, from each
// session's JSON encoded once and kept while the session shows the same:
// the page asks every few seconds, and indenting the JSON of a thousand
// sessions cost the server more than listing them.
type sessionsJSON struct {
	mu   sync.Mutex
	kept map[string]keptJSON // what the last answer encoded, by session id
}

// keptJSON is a session's JSON, encoded from what key says.
type keptJSON struct {
	key  sessionKey
	data []byte
}

// sessionKey is what a session of a listing shows, as a map key: every
// field of Session, the pointers' values included. A session with
// detail (Config, Logs, Units, Metadata, Agents: never in a listing) has
// none.
type sessionKey struct {
	id, tmux, status, err, created, dir, mode, last, started, httpStatus, unitDir, workflowsDir, host string
	needsYou, asking, agentCount                                                                      int
	hasNeedsYou, hasAsking, hasAgentCount                                                             bool
}

// keyOf is the key of s; false when s has detail.
func keyOf(s *Session) (sessionKey, bool) {
	if s.Config != nil || s.Logs != nil || s.Units != nil || s.Metadata != nil || s.Agents != nil {
		return sessionKey{}, false
	}
	k := sessionKey{id: s.SessionID, tmux: s.TmuxSession, status: s.Status, err: s.Error, created: s.CreatedAt,
		dir: s.WorkingDir, mode: s.Mode, last: s.LastActivity, started: s.StartedAt, httpStatus: s.HTTPServerStatus,
		unitDir: s.UnitDir, workflowsDir: s.WorkflowsDir, host: s.Host}
	k.needsYou, k.hasNeedsYou = deref(s.NeedsYou)
	k.asking, k.hasAsking = deref(s.Asking)
	k.agentCount, k.hasAgentCount = deref(s.AgentCount)
	return k, true
}

func deref(p *int) (int, bool) {
	if p == nil {
		return 0, false
	}
	return *p, true
}

// The answer's frame around the sessions, as json.Encoder indents a map
// of "sessions" and "total" with SetIndent("", "  ").
const (
	sessionsOpen    = "{\n  \"sessions\": ["
	sessionIndent   = "    " // a session's lines, two levels in
	sessionsClose   = "\n  ],\n  \"total\": "
	sessionsNone    = "{\n  \"sessions\": [],\n  \"total\": 0\n}\n"
	sessionsEndLine = "\n}\n"
)

// write writes list with status 200.
func (c *sessionsJSON) write(w http.ResponseWriter, list []Session) {
	body, err := c.encode(list)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"sessions": list, "total": len(list)})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// encode is the answer's body for list.
func (c *sessionsJSON) encode(list []Session) ([]byte, error) {
	if len(list) == 0 {
		return []byte(sessionsNone), nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := make(map[string]keptJSON, len(list))
	parts := make([][]byte, len(list))
	size := len(sessionsOpen) + len(sessionsClose) + len(sessionsEndLine) + 20
	for i := range list {
		data, err := c.session(&list[i], kept)
		if err != nil {
			return nil, err
		}
		parts[i] = data
		size += len(",\n"+sessionIndent) + len(data)
	}
	var b bytes.Buffer
	b.Grow(size) // one buffer for the answer
	b.WriteString(sessionsOpen)
	for i, data := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n" + sessionIndent)
		b.Write(data)
	}
	b.WriteString(sessionsClose + strconv.Itoa(len(list)) + sessionsEndLine)
	c.kept = kept
	return b.Bytes(), nil
}

// session is the indented JSON of s, from what the last answer encoded
// when s shows the same, kept in kept for the next. The map is by id
// (a short key to hash), the whole key compared then.
func (c *sessionsJSON) session(s *Session, kept map[string]keptJSON) ([]byte, error) {
	k, ok := keyOf(s)
	if ok {
		if last, found := c.kept[s.SessionID]; found && last.key == k {
			kept[s.SessionID] = last
			return last.data, nil
		}
	}
	data, err := json.MarshalIndent(s, sessionIndent, "  ")
	if _, twice := kept[s.SessionID]; err == nil && ok && !twice {
		kept[s.SessionID] = keptJSON{key: k, data: data}
	}
	return data, err
}
