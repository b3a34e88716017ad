// Package api serves the MAS HTTP API: JSON handlers over the same verbs
// the command line uses, with no shell anywhere between a request and
// tmux.
package api

import (
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"time"
)

//go:embed web
var webRoot embed.FS

// webFiles is the web page, embedded: no build step, no Node server.
var webFiles, _ = fs.Sub(webRoot, "web")

// MaxBody caps the size of a request body.
const MaxBody = 1 << 20

// Errors a Backend wraps so that handlers answer with the right status.
var (
	ErrInvalid  = errors.New("invalid request")   // 400
	ErrNotFound = errors.New("not found")         // 404
	ErrConflict = errors.New("conflict")          // 409
	ErrPartial  = errors.New("partially applied") // 502: some agents were not reached
)

// Backend is what the API needs from mas; main implements it with the
// verbs of the command line.
type Backend interface {
	Run(ctx context.Context, r RunRequest) (*Run, error)
	Sessions(ctx context.Context) ([]Session, error)
	Session(ctx context.Context, ref string) (*Session, error)
	Stop(ctx context.Context, ref string) (*Session, error)
	Message(ctx context.Context, m MessageRequest) (*MessageResult, error)
	// Status describes a session: the one named ("" for the one the
	// command line would pick).
	Status(ctx context.Context, session string) (any, error)
}

// RunRequest is the body of POST /runs.
type RunRequest struct {
	Agents      json.RawMessage `json:"agents"`
	SessionMode string          `json:"sessionMode,omitempty"`
}

// Run is the answer to POST /runs.
type Run struct {
	SessionID    string `json:"sessionId"`
	TmuxSession  string `json:"tmuxSession"`
	WorkingDir   string `json:"workingDir"`
	UnitDir      string `json:"unitDir"`
	WorkflowsDir string `json:"workflowsDir"`
	SessionMode  string `json:"sessionMode"`
	StartedAt    string `json:"startedAt"`
	Status       string `json:"status"`
	PromptsSent  int    `json:"promptsSent"`
	Error        string `json:"error,omitempty"` // prompts that could not be delivered
}

// Session is one session, as lists and details show it.
type Session struct {
	SessionID    string    `json:"sessionId"`
	TmuxSession  string    `json:"tmuxSession"`
	Status       string    `json:"status"`
	Error        string    `json:"error,omitempty"`
	CreatedAt    string    `json:"createdAt"`
	WorkingDir   string    `json:"workingDir"`
	Mode         string    `json:"mode"`
	UnitDir      string    `json:"unitDir,omitempty"`
	WorkflowsDir string    `json:"workflowsDir,omitempty"`
	Config       *string   `json:"config,omitempty"`
	Logs         []string  `json:"logs,omitempty"`
	Units        []string  `json:"units,omitempty"`
	Metadata     *Metadata `json:"metadata,omitempty"`
}

// Metadata is a session's metadata.json.
type Metadata struct {
	SessionID    string `json:"sessionId"`
	SessionName  string `json:"sessionName"`
	WorkingDir   string `json:"workingDir"`
	StartedAt    string `json:"startedAt"`
	Status       string `json:"status"`
	Mode         string `json:"mode"`
	UnitDir      string `json:"unitDir"`
	WorkflowsDir string `json:"workflowsDir"`
}

// MessageRequest is the body of POST /message.
type MessageRequest struct {
	Session string `json:"session,omitempty"`
	Target  string `json:"target"`
	Message string `json:"message"`
	Execute bool   `json:"execute,omitempty"`
}

// MessageResult is the answer to POST /message.
type MessageResult struct {
	Status  string `json:"status"`
	Session string `json:"session"`
	Target  string `json:"target"`
	Sent    int    `json:"sent"`
	Total   int    `json:"total"`
}

// Handler routes the API. With a token, every request must carry
// "Authorization: Bearer <token>".
func Handler(b Backend, token string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "timestamp": now()})
	})
	mux.HandleFunc("POST /runs", func(w http.ResponseWriter, r *http.Request) {
		var req RunRequest
		if !decode(w, r, &req) {
			return
		}
		if len(req.Agents) == 0 || string(req.Agents) == "null" {
			writeError(w, fmt.Errorf("%w: agents is required", ErrInvalid))
			return
		}
		switch req.SessionMode {
		case "", "legacy", "isolated":
		default:
			writeError(w, fmt.Errorf("%w: sessionMode must be legacy or isolated", ErrInvalid))
			return
		}
		run, err := b.Run(r.Context(), req)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, run)
	})
	mux.HandleFunc("GET /sessions", func(w http.ResponseWriter, r *http.Request) {
		list, err := b.Sessions(r.Context())
		if err != nil {
			writeError(w, err)
			return
		}
		if list == nil {
			list = []Session{}
		}
		writeJSON(w, http.StatusOK, map[string]any{"sessions": list, "total": len(list)})
	})
	mux.HandleFunc("GET /sessions/{id}", func(w http.ResponseWriter, r *http.Request) {
		s, err := b.Session(r.Context(), r.PathValue("id"))
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, s)
	})
	mux.HandleFunc("POST /sessions/{id}/stop", func(w http.ResponseWriter, r *http.Request) {
		s, err := b.Stop(r.Context(), r.PathValue("id"))
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"sessionId": s.SessionID, "tmuxSession": s.TmuxSession, "status": "stopped", "timestamp": now()})
	})
	mux.HandleFunc("POST /message", func(w http.ResponseWriter, r *http.Request) {
		var req MessageRequest
		if !decode(w, r, &req) {
			return
		}
		if req.Target == "" || req.Message == "" {
			writeError(w, fmt.Errorf("%w: target and message are required", ErrInvalid))
			return
		}
		res, err := b.Message(r.Context(), req)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, res)
	})
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		st, err := b.Status(r.Context(), r.URL.Query().Get("session"))
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, st)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, errorBody{"no such endpoint: " + r.Method + " " + r.URL.Path, http.StatusNotFound})
	})
	// The web page: static files only, which talk to the API above.
	static := http.FileServerFS(webFiles)
	page := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		static.ServeHTTP(w, r)
	}
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /ui/", func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = strings.TrimPrefix(r.URL.Path, "/ui")
		page(w, r2)
	})
	if token == "" {
		return mux
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && (r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, "/ui/")) {
			mux.ServeHTTP(w, r) // the page itself holds no data
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			writeJSON(w, http.StatusUnauthorized, errorBody{"missing or wrong bearer token", http.StatusUnauthorized})
			return
		}
		mux.ServeHTTP(w, r)
	})
}

type errorBody struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

// decode reads a JSON body of at most MaxBody bytes, answering 400 or 413
// itself when it cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBody)).Decode(v)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeJSON(w, http.StatusRequestEntityTooLarge, errorBody{fmt.Sprintf("request body larger than %d bytes", MaxBody), http.StatusRequestEntityTooLarge})
		return false
	case err != nil:
		writeJSON(w, http.StatusBadRequest, errorBody{"invalid JSON body: " + err.Error(), http.StatusBadRequest})
		return false
	}
	return true
}

func writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	switch {
	case errors.Is(err, ErrInvalid):
		status = http.StatusBadRequest
	case errors.Is(err, ErrNotFound):
		status = http.StatusNotFound
	case errors.Is(err, ErrConflict):
		status = http.StatusConflict
	case errors.Is(err, ErrPartial):
		status = http.StatusBadGateway
	}
	writeJSON(w, status, errorBody{err.Error(), status})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// CheckAddr refuses to listen beyond this machine without a token.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if token != "" || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without MAS_API_TOKEN: anyone who reaches it could type into your agents", addr)
}

// Serve serves h on ln until ctx ends, then shuts down gracefully.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	return nil
}
