// Package api serves the MAS HTTP API: JSON handlers over the same verbs
// the command line uses, with no shell anywhere between a request and
// tmux, behind checks that keep browser pages of other origins out.
package api

import (
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"mas/internal/report"
	"mas/internal/sgr"
	"mas/isolated"
)

//go:embed web
var webRoot embed.FS

// webFiles is the web page, embedded: no build step, no Node server.
var webFiles, _ = fs.Sub(webRoot, "web")

// MaxBody caps the size of a request body.
const MaxBody = 1 << 20

// The kinds of error a Backend returns (made with Errorf) so that handlers
// answer with the right status.
var (
	ErrInvalid  = errors.New("invalid request")   // 400
	ErrNotFound = errors.New("not found")         // 404
	ErrConflict = errors.New("conflict")          // 409
	ErrPartial  = errors.New("partially applied") // 502: some agents were not reached
)

// Errorf formats an error of kind (ErrInvalid, ErrNotFound, ErrConflict or
// ErrPartial) as fmt.Errorf does: errors.Is finds kind in it, but kind
// adds no text, since the status says it already.
func Errorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, err: fmt.Errorf(format, args...)}
}

// kindError is an error with a kind that adds no text.
type kindError struct{ kind, err error }

func (e *kindError) Error() string { return e.err.Error() }

func (e *kindError) Unwrap() []error { return []error{e.kind, e.err} }

// Backend is what the API needs from mas; app.Backend implements it with
// the verbs of the command line.
type Backend interface {
	Run(ctx context.Context, r RunRequest) (*Run, error)
	Sessions(ctx context.Context) ([]Session, error)
	Session(ctx context.Context, ref string) (*Session, error)
	Stop(ctx context.Context, ref string) (*Session, error)
	// Resume brings a stopped session back and describes it as Session
	// does.
	Resume(ctx context.Context, ref string) (*Session, error)
	// Remove deletes a session's directory and index entry, stopping it
	// first when force; it returns the session's full id.
	Remove(ctx context.Context, ref string, force bool) (string, error)
	Message(ctx context.Context, m MessageRequest) (*MessageResult, error)
	// Output is the last lines of the screens of a running session's
	// agents: those agent names, as send takes them ("" for all), lines
	// of each ("" for the default), every pane read by one tmux process.
	Output(ctx context.Context, ref, agent, lines string) (*Output, error)
	// Status describes a session: the one named ("" for the one the
	// command line would pick).
	Status(ctx context.Context, session string) (*Status, error)
	// Connect tells how to attach to a running session, in the original
	// API's shape; it attaches nothing.
	Connect(ctx context.Context, ref string, r ConnectRequest) (*Connection, error)
	// Agents is the seat and state of each agent of a session, in the
	// original API's shape: all stopped when the session does not run.
	Agents(ctx context.Context, ref string) (*SessionAgents, error)
}

// RunRequest is the body of POST /runs.
type RunRequest struct {
	Agents      json.RawMessage `json:"agents"`
	SessionMode string          `json:"sessionMode,omitempty"`
	// Host is where the session is made: a host of the root, "auto"
	// (the one that runs the fewest sessions, this machine counted) or
	// "local"; absent: this machine.
	Host string `json:"host,omitempty"`
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
	// Host is the host the session was made on (SessionID is then
	// NAME:<uuid>); absent for this machine.
	Host string `json:"host,omitempty"`
}

// Session is one session, as lists and details show it.
type Session struct {
	// SessionID is NAME:<uuid> for a session of host NAME (Host).
	SessionID   string `json:"sessionId"`
	TmuxSession string `json:"tmuxSession"`
	Status      string `json:"status"`
	Error       string `json:"error,omitempty"`
	CreatedAt   string `json:"createdAt"`
	WorkingDir  string `json:"workingDir"`
	Mode        string `json:"mode"`
	// NeedsYou is how many agents of a running session wait for a person
	// (their turn ended, or they ask), Asking how many of those ask;
	// absent when the session does not run or its agents report no
	// events.
	NeedsYou *int `json:"needsYou,omitempty"`
	Asking   *int `json:"asking,omitempty"`
	// LastActivity is when an agent of the session last reported an
	// event (RFC 3339), absent when none did.
	LastActivity string `json:"lastActivity,omitempty"`
	// The original API's fields, in GET /sessions and GET
	// /sessions/{id} only: StartedAt is CreatedAt; AgentCount how many
	// agents' programs run (as Agents says SeatRunning); HTTPServerStatus
	// ServerRunning, said by the server that answers for the session's root.
	StartedAt        string   `json:"startedAt,omitempty"`
	AgentCount       *int     `json:"agentCount,omitempty"`
	HTTPServerStatus string   `json:"httpServerStatus,omitempty"`
	UnitDir          string   `json:"unitDir,omitempty"`
	WorkflowsDir     string   `json:"workflowsDir,omitempty"`
	Config           *string  `json:"config,omitempty"`
	Logs             []string `json:"logs,omitempty"`
	Units            []string `json:"units,omitempty"`
	// Metadata is the session's metadata.json.
	Metadata *isolated.Metadata `json:"metadata,omitempty"`
	// Agents are its agents while it runs, in roster order: in GET
	// /sessions/{id} only.
	Agents []Agent `json:"agents,omitempty"`
	// Host is the host the session runs on; absent for this machine's.
	Host string `json:"host,omitempty"`
}

// MessageRequest is the body of POST /message.
type MessageRequest struct {
	Session string `json:"session,omitempty"`
	Target  string `json:"target"`
	Message string `json:"message"`
	Execute bool   `json:"execute,omitempty"`
	// Force sends even to agents that are asking a person: the text
	// answers their dialog. Without it, such a message is a conflict.
	Force bool `json:"force,omitempty"`
}

// MessageResult is the answer to POST /message.
type MessageResult struct {
	Status  string `json:"status"`
	Session string `json:"session"`
	Target  string `json:"target"`
	Sent    int    `json:"sent"`
	Total   int    `json:"total"`
}

// Agent is one agent of a running session, as GET /sessions/{id} shows
// it.
type Agent struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Window string `json:"window"`
	Status string `json:"status"` // running, starting, exited, stopped or missing
	// What the agent does, from its events: starting, waiting, working,
	// asking, exited, missing or unknown; since when (ISO-8601); what an
	// asking agent asks.
	Activity      string `json:"activity"`
	ActivitySince string `json:"activitySince,omitempty"`
	Message       string `json:"message,omitempty"`
}

// AgentOutput is an agent and the last lines of its screen, as peek
// --json and GET /sessions/{id}/output show them.
type AgentOutput struct {
	Agent
	// Lines are the screen's last lines, a line that the pane wrapped
	// joined into one; Styled is each of them in runs of one style (its
	// colours and attributes: numbers and flags), absent for a missing
	// pane.
	Lines  []string    `json:"lines"` // [] for a missing pane
	Styled [][]sgr.Run `json:"styled,omitempty"`
}

// Output is the answer to GET /sessions/{id}/output.
type Output struct {
	SessionID   string        `json:"sessionId"`
	TmuxSession string        `json:"tmuxSession"`
	Agents      []AgentOutput `json:"agents"`
}

// ConnectRequest is the optional body of POST /sessions/{id}/connect, as
// the original API took it.
type ConnectRequest struct {
	// Reconnect is accepted, as the original accepted it; it changes
	// nothing, connecting being only a description.
	Reconnect bool `json:"reconnect,omitempty"`
	// Window, when set, is the window the attach command shows: meta,
	// design, development or business.
	Window string `json:"window,omitempty"`
}

// Connection is the answer to POST /sessions/{id}/connect, in the shape
// of the original API's ConnectionInfo: how to attach to a running
// session.
type Connection struct {
	SessionID     string            `json:"sessionId"`
	TmuxSession   string            `json:"tmuxSession"`
	AttachCommand string            `json:"attachCommand"`
	Status        string            `json:"status"` // SessionConnected
	Timestamp     string            `json:"timestamp"`
	Details       ConnectionDetails `json:"connectionDetails"`
}

// ConnectionDetails counts what a Connection reaches.
type ConnectionDetails struct {
	Windows       int    `json:"windows"`
	ActiveAgents  int    `json:"activeAgents"` // as Session.AgentCount
	FocusedWindow string `json:"focusedWindow,omitempty"`
}

// SessionAgents is the answer to GET /sessions/{id}/agents, in the shape
// of the original API's.
type SessionAgents struct {
	SessionID string      `json:"sessionId"`
	Agents    []AgentSeat `json:"agents"`
	Timestamp string      `json:"timestamp"`
}

// AgentSeat is one agent as the original API's AgentStatus showed it.
type AgentSeat struct {
	AgentID string     `json:"agentId"`
	Name    string     `json:"name"`
	Status  SeatStatus `json:"status"`
	Window  string     `json:"window"`
	Pane    int        `json:"pane"` // its position in its window, from 0
}

// SeatStatus is an agent's state as the original API's AgentStatus said
// it.
type SeatStatus string

// The states of an AgentSeat.
const (
	SeatRunning SeatStatus = "running" // the agent's program runs
	SeatError   SeatStatus = "error"   // its pane is gone
	SeatStopped SeatStatus = "stopped" // not started yet, exited, or the session does not run
)

// The original API's words for what a request did, each the one value of
// the "status" field of its answer.
const (
	RunStarted          = "started"      // Run.Status
	MessageAcknowledged = "acknowledged" // MessageResult.Status
	SessionStopped      = "stopped"      // DELETE /sessions/{id}
	SessionConnected    = "connected"    // Connection.Status
	ServerRunning       = "running"      // Session.HTTPServerStatus: the server that answers runs
	Healthy             = "ok"           // GET /health
)

// Status is the answer to GET /status: a session's status, as status
// --json shows it.
type Status struct {
	Session    string         `json:"session"`
	Status     string         `json:"status"` // running, partial or stopped
	HTTPServer HTTPStatus     `json:"httpServer"`
	StartedAt  string         `json:"startedAt,omitempty"`
	Workspace  string         `json:"workspace,omitempty"`
	Windows    []WindowStatus `json:"windows,omitempty"`
	Agents     []AgentStatus  `json:"agents,omitempty"`
}

// HTTPStatus tells whether the root's background server runs.
type HTTPStatus struct {
	Running bool `json:"running"`
	PID     int  `json:"pid,omitempty"`
}

// WindowStatus is one window of a Status.
type WindowStatus struct {
	Name  string `json:"name"`
	Panes int    `json:"panes"`
}

// AgentStatus is one agent of a Status: an Agent with its pane and its
// own conversation id.
type AgentStatus struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Status        string `json:"status"`
	Window        string `json:"window"`
	Pane          string `json:"pane,omitempty"`
	Activity      string `json:"activity"`
	ActivitySince string `json:"activitySince,omitempty"`
	Message       string `json:"message,omitempty"`
	Conversation  string `json:"conversation,omitempty"`
}

// Options say how a Server checks who asks.
type Options struct {
	// Token, when set, must come with every API request: as
	// "Authorization: Bearer <token>", or as the cookie of a login.
	Token string
	// Addr is the address the server listens on, with its real port:
	// Host headers must name it.
	Addr string
	// Host is the configured host (of --addr or MAS_HTTP_HOST), also
	// accepted in Host headers when a token is set.
	Host string
	// Log receives each new login URL (with a token): the first from
	// New, the next one each time one is used.
	Log *report.Reporter
	// Refused, when set, is called for every request refused before it
	// reached a handler.
	Refused func(r *http.Request, status int)
	// Requests, when set, receives one line per request: time, client,
	// method, path (never the query, which may hold a login code; never a
	// header), status and duration.
	Requests *report.Reporter
}

// Server is the API and its web page behind the request checks.
type Server struct {
	mux     *http.ServeMux
	origin  origin
	token   string
	login   *login // nil without a token
	refused func(*http.Request, int)
	// peerUIDOf replaces the kernel's answer in tests.
	peerUIDOf func(*http.Request) (int, bool)
	requests  *requestLog // nil: requests are not logged
}

// New builds the Server of b.
func New(b Backend, o Options) *Server {
	s := &Server{mux: routes(b), origin: newOrigin(o), token: o.Token, refused: o.Refused}
	if o.Requests != nil {
		s.requests = &requestLog{w: o.Requests}
	}
	if o.Token != "" {
		s.login = newLogin(o)
	}
	return s
}

// LoginURL is the one-time URL that lets a browser in, "" without a
// token.
func (s *Server) LoginURL() string {
	if s.login == nil {
		return ""
	}
	return s.login.url()
}

// ServeHTTP checks Host, Origin and Content-Type, then the token or the
// login cookie, then routes; each request is logged once answered.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.requests == nil {
		s.serve(w, r)
		return
	}
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	s.serve(sw, r)
	s.requests.log(r, sw.code(), time.Since(start))
}

// serve is ServeHTTP without the request log.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	secureHeaders(w.Header())
	if status, msg := s.origin.refusal(r); status != 0 {
		s.refuse(w, r, status, msg)
		return
	}
	if s.login == nil {
		// Without a token, loopback is the only lock: other users of the
		// machine reach it too, so their requests are refused.
		if uid, ok := s.peerUID(r); ok && uid != os.Getuid() {
			s.refuse(w, r, http.StatusForbidden, fmt.Sprintf("request from another user of this machine (uid %d): only uid %d may use this server without MAS_API_TOKEN", uid, os.Getuid()))
			return
		}
		s.mux.ServeHTTP(w, r)
		return
	}
	get := r.Method == http.MethodGet || r.Method == http.MethodHead
	switch {
	case get && (r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, "/ui/")):
		s.mux.ServeHTTP(w, r) // the page itself holds no data
	case r.Method == http.MethodGet && r.URL.Path == "/login":
		s.login.serve(w, r)
	case s.bearer(r) || s.login.has(r):
		s.mux.ServeHTTP(w, r)
	default:
		w.Header().Set("WWW-Authenticate", "Bearer")
		s.refuse(w, r, http.StatusUnauthorized, "missing or wrong bearer token or login cookie: open the login URL that mas serve printed on stderr")
	}
}

// peerUID is the user of the client's end of the connection, where the
// system can tell (Linux); -1 when it could look and found nothing. It
// is asked once per connection when the connection has a connPeer.
func (s *Server) peerUID(r *http.Request) (int, bool) {
	ask := func() (int, bool) {
		if s.peerUIDOf != nil {
			return s.peerUIDOf(r)
		}
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if local == nil {
			return 0, false
		}
		return peerUID(r.RemoteAddr, local.String())
	}
	p, ok := r.Context().Value(connPeerKey{}).(*connPeer)
	if !ok {
		return ask()
	}
	p.once.Do(func() { p.uid, p.known = ask() })
	return p.uid, p.known
}

// connPeer is the user of a connection's client, asked at its first
// request only: the kernel's tables name the user whose process made the
// socket (its sk_uid), which nothing but a chown by root changes, so
// every request of a kept-alive connection (the page's refreshes) gets
// the answer its first got, for the cost of one lookup.
type connPeer struct {
	once  sync.Once
	uid   int
	known bool
}

type connPeerKey struct{}

// withConnPeer gives each connection its connPeer (http.Server's
// ConnContext).
func withConnPeer(ctx context.Context, _ net.Conn) context.Context {
	return context.WithValue(ctx, connPeerKey{}, &connPeer{})
}

func (s *Server) bearer(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}

func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if s.refused != nil {
		s.refused(r, status)
	}
	writeJSON(w, status, errorBody{msg, status})
}

type errorBody struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

// decode reads a JSON body of at most MaxBody bytes, answering 400 or 413
// itself when it cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	// The whole body is read, under the server's read timeout, before a
	// handler goes on: POST /runs lifts that timeout afterwards, and must
	// not leave the rest of a slow body to trickle in without one.
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err == nil {
		err = json.Unmarshal(data, v)
	}
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
	case errors.Is(err, ErrPartial), errors.Is(err, ErrHost):
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
