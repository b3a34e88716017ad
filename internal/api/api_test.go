package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// addr is where the handlers under test say they listen.
const addr = "127.0.0.1:8765"

// handler is the Server of b on addr, with token.
func handler(b Backend, token string) *Server {
	return New(b, Options{Token: token, Addr: addr})
}

// request is a request as curl would send it to addr: the Host names the
// server, a body is JSON.
func request(method, path, body string) *http.Request {
	req := httptest.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// fake is a Backend that records what it was asked and answers from its
// fields.
type fake struct {
	mu       sync.Mutex
	runs     []RunRequest
	messages []MessageRequest
	stops    []string
	outputs  [][3]string // ref, agent, lines of each Output
	resumes  []string
	removes  []string // "<ref> force=<bool>"
	connects []ConnectRequest
	err      error
	during   func() // what happens while Run runs
	runCtx   error  // the context's error when Run ended
}

func (f *fake) Run(ctx context.Context, r RunRequest) (*Run, error) {
	if f.during != nil {
		f.during()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runCtx = ctx.Err()
	f.runs = append(f.runs, r)
	if f.err != nil {
		return nil, f.err
	}
	return &Run{SessionID: "3f0c2a9e-1b2c-4d5e-8f90-123456789abc", TmuxSession: "mas-3f0c2a9e", SessionMode: "isolated", Status: "started"}, nil
}

func (f *fake) Sessions(context.Context) ([]Session, error) {
	return []Session{{SessionID: "a", TmuxSession: "mas-a", Status: "active", Mode: "isolated",
		NeedsYou: new(2), Asking: new(1), LastActivity: "2026-01-02T03:04:05Z"}}, f.err
}

func (f *fake) Session(_ context.Context, ref string) (*Session, error) {
	if ref != "3f0c2a9e" {
		return nil, Errorf(ErrNotFound, "no such session: %s", ref)
	}
	return &Session{SessionID: "3f0c2a9e-1b2c-4d5e-8f90-123456789abc", Status: "active", NeedsYou: new(1), Asking: new(1),
		Agents: []Agent{{ID: "21", Name: "Frontend Developer", Window: "development", Status: "running",
			Activity: "asking", ActivitySince: "2026-01-02T03:04:05Z", Message: "permission to use Bash"}}}, nil
}

func (f *fake) Stop(_ context.Context, ref string) (*Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stops = append(f.stops, ref)
	if ref == "../x" {
		return nil, Errorf(ErrInvalid, "malformed session id")
	}
	return &Session{SessionID: ref, TmuxSession: "mas-" + ref}, nil
}

func (f *fake) Resume(_ context.Context, ref string) (*Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resumes = append(f.resumes, ref)
	if f.err != nil {
		return nil, f.err
	}
	return &Session{SessionID: "3f0c2a9e-1b2c-4d5e-8f90-123456789abc", TmuxSession: "mas-3f0c2a9e", Status: "active"}, nil
}

func (f *fake) Remove(_ context.Context, ref string, force bool) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removes = append(f.removes, fmt.Sprintf("%s force=%v", ref, force))
	if f.err != nil {
		return "", f.err
	}
	return "3f0c2a9e-1b2c-4d5e-8f90-123456789abc", nil
}

func (f *fake) Message(_ context.Context, m MessageRequest) (*MessageResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.messages = append(f.messages, m)
	if f.err != nil {
		return nil, f.err
	}
	return &MessageResult{Status: "acknowledged", Session: "mas-tmux", Target: m.Target, Sent: 1, Total: 1}, nil
}

func (f *fake) Output(_ context.Context, ref, agent, lines string) (*Output, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.outputs = append(f.outputs, [3]string{ref, agent, lines})
	if f.err != nil {
		return nil, f.err
	}
	if ref != "3f0c2a9e" {
		return nil, Errorf(ErrNotFound, "no such session: %s", ref)
	}
	return &Output{SessionID: "3f0c2a9e-1b2c-4d5e-8f90-123456789abc", TmuxSession: "mas-3f0c2a9e",
		Agents: []AgentOutput{{Agent: Agent{ID: "00", Name: "Meta Manager", Window: "meta", Status: "running"}, Lines: []string{"hi"}}}}, nil
}

func (f *fake) Connect(_ context.Context, ref string, r ConnectRequest) (*Connection, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.connects = append(f.connects, r)
	if f.err != nil {
		return nil, f.err
	}
	if ref != "3f0c2a9e" {
		return nil, Errorf(ErrNotFound, "no such session: %s", ref)
	}
	return &Connection{SessionID: "3f0c2a9e-1b2c-4d5e-8f90-123456789abc", TmuxSession: "mas-3f0c2a9e",
		AttachCommand: "tmux attach-session -t '=mas-3f0c2a9e'", Details: ConnectionDetails{Windows: 4, ActiveAgents: 13, FocusedWindow: r.Window}}, nil
}

func (f *fake) Agents(_ context.Context, ref string) (*SessionAgents, error) {
	if f.err != nil {
		return nil, f.err
	}
	if ref != "3f0c2a9e" {
		return nil, Errorf(ErrNotFound, "no such session: %s", ref)
	}
	return &SessionAgents{SessionID: "3f0c2a9e-1b2c-4d5e-8f90-123456789abc",
		Agents: []AgentSeat{{AgentID: "11", Name: "UI Designer", Status: "running", Window: "design", Pane: 1}}}, nil
}

func (f *fake) Status(context.Context, string) (*Status, error) {
	return &Status{Status: "running"}, f.err
}

func do(t *testing.T, h http.Handler, method, path, body string, header ...string) (int, map[string]any) {
	t.Helper()
	req := request(method, path, body)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %q", method, path, rec.Body.String())
	}
	return rec.Code, out
}

func TestHandlers(t *testing.T) {
	tests := []struct {
		method, path, body string
		backendErr         error
		status             int
		field, want        string
		why                string
	}{
		{"GET", "/health", "", nil, 200, "status", "ok", ""},
		{"POST", "/runs", `{"agents": {"metaManager": {"prompt": "hi"}}, "sessionMode": "isolated"}`, nil, 201, "tmuxSession", "mas-3f0c2a9e", ""},
		{"POST", "/runs", `{"sessionMode": "isolated"}`, nil, 400, "error", "agents is required", ""},
		{"POST", "/runs", `{"agents": {}, "sessionMode": "shared"}`, nil, 400, "error", "sessionMode must be legacy or isolated", ""},
		{"POST", "/runs", `{"agents": `, nil, 400, "status", "400", "truncated JSON"},
		{"POST", "/runs", `{"agents": {}}`, Errorf(ErrConflict, "session mas-tmux already exists"), 409, "error", "session mas-tmux already exists", "legacy session running"},
		{"POST", "/runs", `{"agents": {}}`, fmt.Errorf("cannot create session: check tmux: tmux not found in PATH"), 500, "error", "cannot create session: check tmux: tmux not found in PATH", ""},
		{"GET", "/sessions", "", nil, 200, "total", "1", ""},
		{"GET", "/sessions/3f0c2a9e", "", nil, 200, "status", "active", ""},
		{"GET", "/sessions/deadbeef", "", nil, 404, "error", "no such session: deadbeef", ""},
		{"POST", "/sessions/3f0c2a9e/stop", "", nil, 200, "status", "stopped", ""},
		{"POST", "/sessions/..%2Fx/stop", "", nil, 400, "status", "400", "traversal ids never reach the file system"},
		{"GET", "/sessions/3f0c2a9e/stop", "", nil, 404, "status", "404", "only POST stops; other methods get a JSON 404"},
		{"POST", "/sessions/3f0c2a9e/resume", "", nil, 200, "status", "active", "no body"},
		{"POST", "/sessions/3f0c2a9e/resume", "{}", nil, 200, "tmuxSession", "mas-3f0c2a9e", "an empty object"},
		{"POST", "/sessions/3f0c2a9e/resume", "{", nil, 400, "status", "400", "a body must be JSON"},
		{"POST", "/sessions/3f0c2a9e/resume", "", Errorf(ErrConflict, "session 3f0c2a9e is running"), 409, "error", "session 3f0c2a9e is running", ""},
		{"POST", "/sessions/deadbeef/resume", "", Errorf(ErrNotFound, "no such session deadbeef"), 404, "status", "404", ""},
		{"GET", "/sessions/3f0c2a9e/resume", "", nil, 404, "status", "404", "only POST resumes"},
		{"DELETE", "/sessions/3f0c2a9e", "", nil, 200, "removed", "true", ""},
		{"DELETE", "/sessions/3f0c2a9e?force=true", "", nil, 200, "sessionId", "3f0c2a9e-1b2c-4d5e-8f90-123456789abc", "the full id"},
		{"DELETE", "/sessions/3f0c2a9e?force=maybe", "", nil, 400, "error", `force must be true or false, not "maybe"`, ""},
		{"DELETE", "/sessions/3f0c2a9e", "", Errorf(ErrConflict, "session 3f0c2a9e is running: stop it first, or add ?force=true"), 409, "status", "409", ""},
		{"DELETE", "/sessions/deadbeef", "", Errorf(ErrNotFound, "no such session deadbeef"), 404, "status", "404", ""},
		{"DELETE", "/sessions", "", nil, 404, "status", "404", "the list is not removed"},
		{"POST", "/message", `{"target": "00", "message": "hi", "execute": true}`, nil, 200, "sent", "1", ""},
		{"POST", "/message", `{"target": "00"}`, nil, 400, "error", "target and message are required", ""},
		{"POST", "/message", `{"target": "00", "message": "x"}`, Errorf(ErrPartial, "message sent to 0/1 agents"), 502, "error", "message sent to 0/1 agents", ""},
		{"POST", "/message", `{"target": "21", "message": "y"}`, Errorf(ErrConflict, "agent 21 is asking"), 409, "error", "agent 21 is asking", "the text would answer a dialog"},
		{"POST", "/message", `{"target": "21", "message": "y", "force": "yes"}`, nil, 400, "status", "400", "force is a boolean"},
		{"GET", "/sessions", "", nil, 200, "sessions", "[map[asking:1 createdAt: lastActivity:2026-01-02T03:04:05Z mode:isolated needsYou:2 sessionId:a status:active tmuxSession:mas-a workingDir:]]", "who needs a person, per session"},
		{"GET", "/status", "", nil, 200, "status", "running", ""},
		{"GET", "/sessions/3f0c2a9e/output", "", nil, 200, "tmuxSession", "mas-3f0c2a9e", ""},
		{"GET", "/sessions/deadbeef/output", "", nil, 404, "error", "no such session: deadbeef", ""},
		{"GET", "/sessions/3f0c2a9e/output?lines=0", "", Errorf(ErrInvalid, "lines \"0\": the number of lines must be from 1 to 2000"), 400, "status", "400", "a bad filter"},
		{"GET", "/sessions/3f0c2a9e/output", "", Errorf(ErrConflict, "session 3f0c2a9e is not running"), 409, "status", "409", "a stopped session"},
		{"POST", "/sessions/3f0c2a9e/output", "", nil, 404, "status", "404", "only GET reads the output"},
		{"POST", "/sessions/3f0c2a9e/connect", "", nil, 200, "status", "connected", "issue 26: the original's connect, with no body"},
		{"POST", "/sessions/3f0c2a9e/connect", `{"window": "design", "reconnect": true}`, nil, 200, "connectionDetails", "map[activeAgents:13 focusedWindow:design windows:4]", "issue 26: its body"},
		{"POST", "/sessions/3f0c2a9e/connect", "{}", nil, 200, "attachCommand", "tmux attach-session -t '=mas-3f0c2a9e'", ""},
		{"POST", "/sessions/3f0c2a9e/connect", `{"reconnect": "yes"}`, nil, 400, "status", "400", "reconnect is a boolean"},
		{"POST", "/sessions/3f0c2a9e/connect", "{", nil, 400, "status", "400", "a body must be JSON"},
		{"POST", "/sessions/deadbeef/connect", "", nil, 404, "error", "no such session: deadbeef", ""},
		{"POST", "/sessions/3f0c2a9e/connect", "", Errorf(ErrConflict, "session 3f0c2a9e is not running"), 409, "status", "409", "a stopped session"},
		{"GET", "/sessions/3f0c2a9e/connect", "", nil, 404, "status", "404", "only POST connects"},
		{"GET", "/sessions/3f0c2a9e/agents", "", nil, 200, "agents", "[map[agentId:11 name:UI Designer pane:1 status:running window:design]]", "issue 26: the original's agents"},
		{"GET", "/sessions/3f0c2a9e/agents", "", nil, 200, "sessionId", "3f0c2a9e-1b2c-4d5e-8f90-123456789abc", ""},
		{"GET", "/sessions/deadbeef/agents", "", nil, 404, "error", "no such session: deadbeef", ""},
		{"POST", "/sessions/3f0c2a9e/agents", "", nil, 404, "status", "404", "only GET reads the agents"},
		{"GET", "/nope", "", nil, 404, "status", "404", "unknown endpoints answer JSON"},
	}
	for _, tt := range tests {
		f := &fake{err: tt.backendErr}
		h := handler(f, "")
		req := request(tt.method, tt.path, tt.body)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("%s %s %s: status %d, want %d: %s", tt.method, tt.path, tt.why, rec.Code, tt.status, rec.Body)
			continue
		}
		if tt.field == "" {
			continue
		}
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Errorf("%s %s: not JSON: %s", tt.method, tt.path, rec.Body)
			continue
		}
		if got := fmt.Sprint(out[tt.field]); got != tt.want {
			t.Errorf("%s %s %s: %s = %q, want %q", tt.method, tt.path, tt.why, tt.field, got, tt.want)
		}
		if tt.status >= 400 && fmt.Sprint(out["status"]) != fmt.Sprint(tt.status) {
			t.Errorf("%s %s: error body status %v, want %d", tt.method, tt.path, out["status"], tt.status)
		}
	}
}

// TestOriginalRoutesStampTheirAnswers: the original API's connect and
// agents answers carry its timestamp; connect's body reaches the backend
// as given, and a body that is not JSON is refused before it (issue 26).
func TestOriginalRoutesStampTheirAnswers(t *testing.T) {
	f := &fake{}
	h := handler(f, "")
	for _, path := range []string{"/sessions/3f0c2a9e/connect", "/sessions/3f0c2a9e/agents"} {
		method := "GET"
		if strings.HasSuffix(path, "connect") {
			method = "POST"
		}
		code, out := do(t, h, method, path, "")
		stamp, _ := out["timestamp"].(string)
		if _, err := time.Parse(time.RFC3339, stamp); code != 200 || err != nil {
			t.Errorf("%s %s: %d, timestamp %q", method, path, code, stamp)
		}
	}
	do(t, h, "POST", "/sessions/3f0c2a9e/connect", `{"window": "business"}`)
	code, _ := do(t, h, "POST", "/sessions/3f0c2a9e/connect", `{"window": "meta"}`, "Content-Type", "text/plain")
	if code != http.StatusUnsupportedMediaType {
		t.Errorf("connect with a text/plain body: %d, want 415", code)
	}
	code, _ = do(t, h, "POST", "/sessions/3f0c2a9e/connect", "", "Origin", "http://evil.example")
	if code != http.StatusForbidden {
		t.Errorf("connect from another origin: %d, want 403", code)
	}
	if len(f.connects) != 2 || f.connects[0] != (ConnectRequest{}) || f.connects[1] != (ConnectRequest{Window: "business"}) {
		t.Errorf("the backend got %+v", f.connects)
	}
}

// TestOutputPassesItsFilters: the session, agent and lines of GET
// /sessions/{id}/output reach the backend as given, decoded once.
func TestOutputPassesItsFilters(t *testing.T) {
	f := &fake{}
	code, out := do(t, handler(f, ""), "GET", "/sessions/3f0c2a9e/output?agent=design%2C00&lines=5", "")
	if code != 200 || len(f.outputs) != 1 || f.outputs[0] != [3]string{"3f0c2a9e", "design,00", "5"} {
		t.Errorf("code %d, backend got %q", code, f.outputs)
	}
	agents, _ := out["agents"].([]any)
	if first, _ := agents[0].(map[string]any); len(agents) != 1 || fmt.Sprint(first["lines"]) != "[hi]" || first["status"] != "running" {
		t.Errorf("agents %v", out["agents"])
	}
	do(t, handler(f, ""), "GET", "/sessions/3f0c2a9e/output", "")
	if f.outputs[1] != [3]string{"3f0c2a9e", "", ""} {
		t.Errorf("without filters the backend got %q", f.outputs[1])
	}
}

// TestSessionShowsAgents: GET /sessions/{id} shows each agent's state and
// activity, and how many need a person; a session's counts are always
// there, its last activity and agents only when it has them.
func TestSessionShowsAgents(t *testing.T) {
	code, out := do(t, handler(&fake{}, ""), "GET", "/sessions/3f0c2a9e", "")
	agents, _ := out["agents"].([]any)
	if code != 200 || len(agents) != 1 || out["needsYou"] != 1.0 || out["asking"] != 1.0 {
		t.Fatalf("%d %v", code, out)
	}
	want := map[string]any{"id": "21", "name": "Frontend Developer", "window": "development", "status": "running",
		"activity": "asking", "activitySince": "2026-01-02T03:04:05Z", "message": "permission to use Bash"}
	if got, _ := agents[0].(map[string]any); !maps.Equal(got, want) {
		t.Errorf("agent %v, want %v", got, want)
	}
	data, _ := json.Marshal(Session{SessionID: "x", Status: "stopped"})
	var fields map[string]any
	json.Unmarshal(data, &fields)
	for _, k := range []string{"needsYou", "asking", "lastActivity", "agents"} {
		if _, ok := fields[k]; ok {
			t.Errorf("a session with no event and no agents shows %s: %s", k, data)
		}
	}
}

// TestMessageForce: "force" reaches the backend as given, false unless
// said.
func TestMessageForce(t *testing.T) {
	f := &fake{}
	h := handler(f, "")
	for _, body := range []string{`{"target": "21", "message": "y"}`, `{"target": "21", "message": "y", "force": true}`, `{"target": "21", "message": "y", "force": false}`} {
		if code, out := do(t, h, "POST", "/message", body); code != 200 {
			t.Errorf("%s: %d %v", body, code, out)
		}
	}
	var got []bool
	for _, m := range f.messages {
		got = append(got, m.Force)
	}
	if !slices.Equal(got, []bool{false, true, false}) {
		t.Errorf("force as the backend got it: %v", got)
	}
}

// TestRemoveForce: ?force=true, and only a boolean, reaches the backend.
func TestRemoveForce(t *testing.T) {
	f := &fake{}
	h := handler(f, "")
	for _, q := range []string{"", "?force=true", "?force=1", "?force=false", "?force=yes"} {
		h.ServeHTTP(httptest.NewRecorder(), request("DELETE", "/sessions/3f0c2a9e"+q, ""))
	}
	want := []string{"3f0c2a9e force=false", "3f0c2a9e force=true", "3f0c2a9e force=true", "3f0c2a9e force=false"}
	if !slices.Equal(f.removes, want) {
		t.Errorf("backend asked %q, want %q", f.removes, want)
	}
}

func TestMessageIsPassedLiterally(t *testing.T) {
	f := &fake{}
	msg := "$(touch /tmp/pwned) `id` \"q\" 'q'\nline two"
	body, _ := json.Marshal(MessageRequest{Session: "mas-tmux", Target: "design", Message: msg, Execute: true})
	code, _ := do(t, handler(f, ""), "POST", "/message", string(body))
	if code != 200 || len(f.messages) != 1 || f.messages[0].Message != msg || !f.messages[0].Execute || f.messages[0].Session != "mas-tmux" {
		t.Errorf("code %d, backend got %+v", code, f.messages)
	}
}

func TestBodyIsCapped(t *testing.T) {
	f := &fake{}
	big := `{"target": "00", "message": "` + strings.Repeat("x", MaxBody) + `"}`
	code, out := do(t, handler(f, ""), "POST", "/message", big)
	if code != http.StatusRequestEntityTooLarge || len(f.messages) != 0 {
		t.Errorf("code %d, %v; backend called %d times", code, out, len(f.messages))
	}
}

func TestToken(t *testing.T) {
	h := handler(&fake{}, "s3cret")
	tests := []struct {
		header string
		status int
	}{
		{"", 401},
		{"Bearer wrong", 401},
		{"bearer s3cret", 401},
		{"Basic s3cret", 401},
		{"Bearer s3cret", 200},
	}
	for _, tt := range tests {
		var hdr []string
		if tt.header != "" {
			hdr = []string{"Authorization", tt.header}
		}
		code, out := do(t, h, "GET", "/health", "", hdr...)
		if code != tt.status {
			t.Errorf("Authorization %q: %d %v, want %d", tt.header, code, out, tt.status)
		}
	}
}

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8765", "", true},
		{"[::1]:8765", "", true},
		{"localhost:8765", "", true},
		{"127.0.0.2:1", "", true},
		{"0.0.0.0:8765", "", false},
		{"192.168.1.5:8765", "", false},
		{":8765", "", false},
		{"0.0.0.0:8765", "t", true},
		{"nonsense", "", false},
	}
	for _, tt := range tests {
		if err := CheckAddr(tt.addr, tt.token); (err == nil) != tt.ok {
			t.Errorf("CheckAddr(%q, %q) = %v", tt.addr, tt.token, err)
		}
	}
}

func TestServeShutsDownGracefully(t *testing.T) {
	ln := listen(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	srv := New(&fake{}, Options{Addr: ln.Addr().String()})
	go func() { done <- Serve(ctx, ln, srv, DefaultLimits()) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/health")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve returned %v", err)
		}
	case <-time.After(patience):
		t.Fatal("Serve did not return after its context ended")
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/health"); err == nil {
		t.Error("server still answers after shutdown")
	}
}

func TestWebPage(t *testing.T) {
	h := handler(&fake{}, "s3cret")
	for _, tt := range []struct{ path, want string }{
		{"/", "<title>mas</title>"},
		{"/ui/app.js", "textContent"},
		{"/ui/style.css", "font"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, request("GET", tt.path, ""))
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("GET %s: %d %.80q", tt.path, rec.Code, rec.Body.String())
		}
		if rec.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: no Content-Security-Policy", tt.path)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, request("GET", "/sessions", ""))
	if rec.Code != 401 {
		t.Errorf("the API behind the page still needs the token: %d", rec.Code)
	}
	if js, _ := fs.ReadFile(webFiles, "app.js"); strings.Contains(string(js), "innerHTML") {
		t.Error("app.js uses innerHTML: text must never be rendered as HTML")
	}
}
