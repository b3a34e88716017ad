package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestGuard sends every kind of request a browser page of another origin,
// a DNS-rebound name or a script can make, and checks which ones reach
// the backend.
func TestGuard(t *testing.T) {
	const msg = `{"target": "all", "message": "rm -rf ~", "execute": true}`
	tests := []struct {
		why          string
		method, path string
		header       []string // name, value, …; "Host" sets the Host
		body         string   // sent without Content-Type unless a header says one
		status       int
	}{
		// Scripts send no Origin and keep working.
		{"curl", "GET", "/sessions", nil, "", 200},
		{"curl posting JSON", "POST", "/message", []string{"Content-Type", "application/json"}, msg, 200},
		{"JSON with a UTF-8 charset", "POST", "/message", []string{"Content-Type", "application/json; charset=utf-8"}, msg, 200},
		{"media types ignore case", "POST", "/message", []string{"Content-Type", "Application/JSON; Charset=UTF-8"}, msg, 200},
		{"a stop has no body and needs no type", "POST", "/sessions/3f0c2a9e/stop", nil, "", 200},
		{"curl removes a session", "DELETE", "/sessions/3f0c2a9e", nil, "", 200},
		{"curl resumes a session", "POST", "/sessions/3f0c2a9e/resume", nil, "", 200},
		{"the page itself: its own origin", "POST", "/message", []string{"Origin", "http://127.0.0.1:8765", "Sec-Fetch-Site", "same-origin", "Content-Type", "application/json"}, msg, 200},
		{"the page opened as localhost", "GET", "/sessions", []string{"Host", "localhost:8765", "Origin", "http://localhost:8765"}, "", 200},
		{"a typed URL or bookmark", "GET", "/", []string{"Sec-Fetch-Site", "none"}, "", 200},

		// DNS rebinding: the Host names something else.
		{"rebound name reads", "GET", "/sessions", []string{"Host", "evil.example:8765"}, "", 421},
		{"rebound name stops", "POST", "/sessions/3f0c2a9e/stop", []string{"Host", "evil.example:8765"}, "", 421},
		{"rebound name sends", "POST", "/message", []string{"Host", "evil.example:8765", "Content-Type", "application/json"}, msg, 421},
		{"rebound name removes", "DELETE", "/sessions/3f0c2a9e", []string{"Host", "evil.example:8765"}, "", 421},
		{"rebound name resumes", "POST", "/sessions/3f0c2a9e/resume", []string{"Host", "evil.example:8765"}, "", 421},
		{"rebound name loads the page", "GET", "/", []string{"Host", "evil.example:8765"}, "", 421},
		{"another port", "GET", "/sessions", []string{"Host", "127.0.0.1:9999"}, "", 421},
		{"no port means 80", "GET", "/sessions", []string{"Host", "127.0.0.1"}, "", 421},
		{"a name ending in a dot", "GET", "/sessions", []string{"Host", "localhost.:8765"}, "", 421},
		{"another loopback address", "GET", "/sessions", []string{"Host", "127.0.0.2:8765"}, "", 421},
		{"a name that resolves to loopback", "GET", "/sessions", []string{"Host", "localtest.me:8765"}, "", 421},
		{"no Host (HTTP/1.0)", "GET", "/sessions", []string{"Host", ""}, "", 421},
		{"IPv6 loopback", "GET", "/sessions", []string{"Host", "[::1]:8765"}, "", 200},
		{"host names ignore case", "GET", "/sessions", []string{"Host", "LocalHost:8765"}, "", 200},

		// Another origin: refused even where a browser would not let it
		// read the answer.
		{"a foreign page posts text/plain (no preflight)", "POST", "/message", []string{"Origin", "http://evil.example", "Content-Type", "text/plain"}, msg, 403},
		{"a foreign page posts JSON", "POST", "/message", []string{"Origin", "http://evil.example", "Content-Type", "application/json"}, msg, 403},
		{"a foreign page stops a session", "POST", "/sessions/3f0c2a9e/stop", []string{"Origin", "http://evil.example"}, "", 403},
		{"a foreign page removes a session", "DELETE", "/sessions/3f0c2a9e", []string{"Origin", "http://evil.example"}, "", 403},
		{"a foreign page removes by force", "DELETE", "/sessions/3f0c2a9e?force=true", []string{"Origin", "http://evil.example"}, "", 403},
		{"a foreign page resumes a session", "POST", "/sessions/3f0c2a9e/resume", []string{"Origin", "http://evil.example", "Content-Type", "application/json"}, "{}", 403},
		{"a page on another local port removes", "DELETE", "/sessions/3f0c2a9e", []string{"Origin", "http://127.0.0.1:9999"}, "", 403},
		{"Sec-Fetch-Site cross-site removes", "DELETE", "/sessions/3f0c2a9e", []string{"Sec-Fetch-Site", "cross-site"}, "", 403},
		{"Sec-Fetch-Site same-site resumes", "POST", "/sessions/3f0c2a9e/resume", []string{"Sec-Fetch-Site", "same-site"}, "", 403},
		{"a preflight for DELETE is never granted", "OPTIONS", "/sessions/3f0c2a9e", []string{"Origin", "http://evil.example", "Access-Control-Request-Method", "DELETE"}, "", 403},
		{"a foreign page reads", "GET", "/sessions", []string{"Origin", "http://evil.example"}, "", 403},
		{"a foreign page loads ours", "GET", "/", []string{"Origin", "http://evil.example"}, "", 403},
		{"Origin null (sandboxed frame, file://, redirect)", "POST", "/message", []string{"Origin", "null", "Content-Type", "application/json"}, msg, 403},
		{"a page on another local port is same-site, not same-origin", "POST", "/message", []string{"Origin", "http://127.0.0.1:9999", "Content-Type", "application/json"}, msg, 403},
		{"https is another origin", "GET", "/sessions", []string{"Origin", "https://127.0.0.1:8765"}, "", 403},
		{"localhost and 127.0.0.1 are two origins", "GET", "/sessions", []string{"Origin", "http://localhost:8765"}, "", 403},
		{"an empty Origin", "GET", "/sessions", []string{"Origin", ""}, "", 403},
		{"Sec-Fetch-Site cross-site without Origin", "GET", "/sessions", []string{"Sec-Fetch-Site", "cross-site"}, "", 403},
		{"Sec-Fetch-Site same-site without Origin", "POST", "/sessions/3f0c2a9e/stop", []string{"Sec-Fetch-Site", "same-site"}, "", 403},
		{"a preflight is never granted", "OPTIONS", "/message", []string{"Origin", "http://evil.example", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type"}, "", 403},
		{"OPTIONS without Origin is just unknown", "OPTIONS", "/message", nil, "", 404},

		// Bodies that are not JSON: what a form or a no-cors fetch sends.
		{"text/plain", "POST", "/message", []string{"Content-Type", "text/plain"}, msg, 415},
		{"curl -d without a type", "POST", "/message", []string{"Content-Type", "application/x-www-form-urlencoded"}, msg, 415},
		{"multipart form", "POST", "/message", []string{"Content-Type", "multipart/form-data; boundary=x"}, msg, 415},
		{"no Content-Type", "POST", "/message", nil, msg, 415},
		{"another charset", "POST", "/message", []string{"Content-Type", "application/json; charset=latin1"}, msg, 415},
		{"another parameter", "POST", "/message", []string{"Content-Type", "application/json; x=y"}, msg, 415},
		{"a type that starts like JSON", "POST", "/message", []string{"Content-Type", "application/jsonx"}, msg, 415},
		{"a body on a stop", "POST", "/sessions/3f0c2a9e/stop", []string{"Content-Type", "text/plain"}, "x", 415},
		{"a form body on a remove", "DELETE", "/sessions/3f0c2a9e", []string{"Content-Type", "application/x-www-form-urlencoded"}, "force=true", 415},
		{"a text body on a resume", "POST", "/sessions/3f0c2a9e/resume", []string{"Content-Type", "text/plain"}, "{}", 415},
		{"a chunked body", "POST", "/message", []string{"Content-Type", "text/plain", "Transfer-Encoding", "chunked"}, msg, 415},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			f := &fake{}
			var refused []int
			h := New(f, Options{Addr: addr, Refused: func(_ *http.Request, status int) { refused = append(refused, status) }})
			req := httptest.NewRequest(tt.method, "http://"+addr+tt.path, strings.NewReader(tt.body))
			for i := 0; i+1 < len(tt.header); i += 2 {
				switch tt.header[i] {
				case "Host":
					req.Host = tt.header[i+1]
				case "Transfer-Encoding":
					req.TransferEncoding, req.ContentLength = []string{tt.header[i+1]}, -1
				default:
					req.Header.Add(tt.header[i], tt.header[i+1])
				}
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			reached := len(f.messages) + len(f.stops) + len(f.resumes) + len(f.removes)
			if wantReached := tt.status == 200 && tt.method != "GET"; (reached > 0) != wantReached {
				t.Errorf("backend reached %d times", reached)
			}
			if tt.status == 403 || tt.status == 415 || tt.status == 421 {
				var out errorBody
				if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Status != tt.status || out.Error == "" {
					t.Errorf("error body %q", rec.Body)
				}
				if len(refused) != 1 || refused[0] != tt.status {
					t.Errorf("Refused hook saw %v", refused)
				}
			}
			for k := range rec.Header() {
				if strings.HasPrefix(k, "Access-Control-") {
					t.Errorf("CORS header granted: %s: %s", k, rec.Header().Get(k))
				}
			}
		})
	}
}

// TestSecurityHeaders: no response of the server can be framed, whatever
// its status; the page may load its own files only.
func TestSecurityHeaders(t *testing.T) {
	h := New(&fake{}, Options{Addr: addr, Token: "s3cret"})
	for _, tt := range []struct {
		why, method, path, host, csp string
	}{
		{"the page", "GET", "/", addr, pagePolicy},
		{"its script", "GET", "/ui/app.js", addr, pagePolicy},
		{"an API answer", "GET", "/health", addr, apiPolicy},
		{"a 401", "GET", "/sessions", addr, apiPolicy},
		{"a 421", "GET", "/", "evil.example:8765", apiPolicy},
		{"a 403 from the login", "GET", "/login?code=x", addr, apiPolicy},
	} {
		req := httptest.NewRequest(tt.method, "http://"+addr+tt.path, nil)
		req.Host = tt.host
		if tt.path == "/health" {
			req.Header.Set("Authorization", "Bearer s3cret")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		hd := rec.Header()
		if got := hd.Get("Content-Security-Policy"); got != tt.csp || !strings.Contains(got, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q, want %q", tt.why, got, tt.csp)
		}
		if hd.Get("X-Frame-Options") != "DENY" || hd.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: X-Frame-Options %q, X-Content-Type-Options %q", tt.why, hd.Get("X-Frame-Options"), hd.Get("X-Content-Type-Options"))
		}
	}
}

// TestHostOffLoopback: with a token, a server listening beyond loopback
// also answers to the host it was configured with.
func TestHostOffLoopback(t *testing.T) {
	wild := Options{Token: "t", Addr: "0.0.0.0:8765", Host: "box.lan"}
	lan := Options{Token: "t", Addr: "192.168.1.5:8765", Host: "box.lan"}
	named := Options{Addr: "127.0.0.1:8765", Host: "box.lan"}
	tests := []struct {
		why  string
		o    Options
		host string
		ok   bool
	}{
		{"the configured name", wild, "box.lan:8765", true},
		{"names ignore case", wild, "BOX.lan:8765", true},
		{"loopback still works", wild, "127.0.0.1:8765", true},
		{"on every address, any IP literal: no name, no rebinding", wild, "192.168.1.5:8765", true},
		{"another name", wild, "evil.example:8765", false},
		{"the configured name on another port", wild, "box.lan:80", false},
		{"the listening IP", lan, "192.168.1.5:8765", true},
		{"another IP when the address is one", lan, "10.0.0.1:8765", false},
		{"the configured name", lan, "box.lan:8765", true},
		{"without a token a configured name is not trusted", named, "box.lan:8765", false},
	}
	for _, tt := range tests {
		h := New(&fake{}, tt.o)
		req := httptest.NewRequest("GET", "http://x/health", nil)
		req.Host = tt.host
		req.Header.Set("Authorization", "Bearer t")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Code == 200; got != tt.ok {
			t.Errorf("%s: listening on %s (configured %q), Host %q: %d", tt.why, tt.o.Addr, tt.o.Host, tt.host, rec.Code)
		}
	}
}
