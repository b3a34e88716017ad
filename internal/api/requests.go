package api

import (
	"net"
	"net/http"
	"time"

	"mas/internal/report"
)

// requestLog writes one line per request, for the person who runs the
// server: what was asked, by whom, and how it ended. It never writes the
// query or a header: a login code, the token and the cookie stay out.
type requestLog struct {
	w *report.Reporter
}

// maxLogged caps the method and the path written: what a client sends is
// not the log's to keep whole.
const maxLogged = 200

// capped cuts s to maxLogged bytes, marking the cut.
func capped(s string) string {
	if len(s) > maxLogged {
		return s[:maxLogged] + "..."
	}
	return s
}

// log writes the line of request r, answered with status after d.
func (l *requestLog) log(r *http.Request, status int, d time.Duration) {
	client, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		client = r.RemoteAddr
	}
	// The path is percent-encoded, and a method is a token: nothing a
	// terminal interprets.
	l.w.Infof("%s %s %s %s %d %.1fms", time.Now().UTC().Format(time.RFC3339), client,
		capped(r.Method), capped(r.URL.EscapedPath()), status, float64(d.Microseconds())/1000)
}

// statusWriter remembers the status a handler answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (POST /runs
// lifts its deadlines).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// code is the status answered; a handler that wrote nothing answered 200.
func (w *statusWriter) code() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}
