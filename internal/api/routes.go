package api

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mas/internal/layout"
)

// routes maps each endpoint to its handler.
func routes(b Backend) *http.ServeMux {
	h := handlers{b: b, list: &sessionsJSON{}}
	mux := http.NewServeMux()
	for _, r := range []struct {
		pattern string
		handle  http.HandlerFunc
	}{
		{"GET /health", health},
		{"POST /runs", h.run},
		{"GET /sessions", h.sessions},
		{"GET /sessions/{id}", h.session},
		{"GET /sessions/{id}/output", h.output},
		{"POST /sessions/{id}/stop", h.stop},
		{"POST /sessions/{id}/connect", h.connect},
		{"GET /sessions/{id}/agents", h.agents},
		{"POST /sessions/{id}/resume", h.resume},
		{"DELETE /sessions/{id}", h.remove},
		{"POST /message", h.message},
		{"GET /status", h.status},
		{"/", noEndpoint},
		// The web page: static files only, which talk to the API above.
		{"GET /{$}", page},
		{"GET /ui/", uiPage},
	} {
		mux.HandleFunc(r.pattern, r.handle)
	}
	return mux
}

// handlers are the API's endpoints over a Backend: each reads its
// request, calls one verb and writes the answer; list keeps the JSON of
// the sessions GET /sessions answered last.
type handlers struct {
	b    Backend
	list *sessionsJSON
}

// answer writes v with status, or err with the status it carries.
func answer(w http.ResponseWriter, status int, v any, err error) {
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, status, v)
}

func health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": Healthy, "timestamp": now()})
}

func (h handlers) run(w http.ResponseWriter, r *http.Request) {
	var req RunRequest
	if !decode(w, r, &req) {
		return
	}
	if len(req.Agents) == 0 || string(req.Agents) == "null" {
		writeError(w, Errorf(ErrInvalid, "agents is required"))
		return
	}
	switch layout.Mode(req.SessionMode) {
	case "", layout.Legacy, layout.Isolated:
	default:
		writeError(w, Errorf(ErrInvalid, "sessionMode must be legacy or isolated"))
		return
	}
	// A run waits for its agents (MAS_READY_TIMEOUT, 60 s by default),
	// longer than the server's read and write timeouts: the body is read
	// and the answer is a few hundred bytes, so lift both rather than have
	// the context cancelled and the answer cut. The backend bounds the
	// wait itself.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	run, err := h.b.Run(r.Context(), req)
	answer(w, http.StatusCreated, run, err)
}

func (h handlers) sessions(w http.ResponseWriter, r *http.Request) {
	list, err := h.b.Sessions(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	if body, ok := withHosts(h.b, list); ok {
		writeJSON(w, http.StatusOK, body)
		return
	}
	h.list.write(w, list)
}

func (h handlers) session(w http.ResponseWriter, r *http.Request) {
	s, err := h.b.Session(r.Context(), r.PathValue("id"))
	answer(w, http.StatusOK, s, err)
}

func (h handlers) output(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	out, err := h.b.Output(r.Context(), r.PathValue("id"), q.Get("agent"), q.Get("lines"))
	answer(w, http.StatusOK, out, err)
}

func (h handlers) stop(w http.ResponseWriter, r *http.Request) {
	s, err := h.b.Stop(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"sessionId": s.SessionID, "tmuxSession": s.TmuxSession, "status": SessionStopped, "timestamp": now()})
}

func (h handlers) connect(w http.ResponseWriter, r *http.Request) {
	// The body is optional, as the original's was: {} or nothing.
	var req ConnectRequest
	if hasBody(r) && !decode(w, r, &req) {
		return
	}
	c, err := h.b.Connect(r.Context(), r.PathValue("id"), req)
	if err != nil {
		writeError(w, err)
		return
	}
	c.Status, c.Timestamp = SessionConnected, now()
	writeJSON(w, http.StatusOK, c)
}

func (h handlers) agents(w http.ResponseWriter, r *http.Request) {
	a, err := h.b.Agents(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	a.Timestamp = now()
	writeJSON(w, http.StatusOK, a)
}

func (h handlers) resume(w http.ResponseWriter, r *http.Request) {
	// The body is optional: {} or nothing.
	var empty struct{}
	if hasBody(r) && !decode(w, r, &empty) {
		return
	}
	s, err := h.b.Resume(r.Context(), r.PathValue("id"))
	answer(w, http.StatusOK, s, err)
}

func (h handlers) remove(w http.ResponseWriter, r *http.Request) {
	force := false
	if v := r.URL.Query().Get("force"); v != "" {
		var err error
		if force, err = strconv.ParseBool(v); err != nil {
			writeError(w, Errorf(ErrInvalid, "force must be true or false, not %s", quote(v)))
			return
		}
	}
	id, err := h.b.Remove(r.Context(), r.PathValue("id"), force)
	answer(w, http.StatusOK, map[string]any{"sessionId": id, "removed": true}, err)
}

func (h handlers) message(w http.ResponseWriter, r *http.Request) {
	var req MessageRequest
	if !decode(w, r, &req) {
		return
	}
	if req.Target == "" || req.Message == "" {
		writeError(w, Errorf(ErrInvalid, "target and message are required"))
		return
	}
	res, err := h.b.Message(r.Context(), req)
	answer(w, http.StatusOK, res, err)
}

func (h handlers) status(w http.ResponseWriter, r *http.Request) {
	st, err := h.b.Status(r.Context(), r.URL.Query().Get("session"))
	answer(w, http.StatusOK, st, err)
}

func noEndpoint(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, errorBody{"no such endpoint: " + r.Method + " " + r.URL.Path, http.StatusNotFound})
}

// static serves the web page's files.
var static = http.FileServerFS(webFiles)

// page serves the web page's files under its policy; the page itself
// ("/") is indexPage, with the team in it.
func page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", pagePolicy)
	if r.URL.Path == "/" {
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(indexPage()))
		return
	}
	static.ServeHTTP(w, r)
}

// uiPage serves the web page's files under /ui/ too.
func uiPage(w http.ResponseWriter, r *http.Request) {
	r2 := r.Clone(r.Context())
	r2.URL.Path = strings.TrimPrefix(r.URL.Path, "/ui")
	page(w, r2)
}
