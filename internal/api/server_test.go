package api

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mas/internal/report"
)

// patience bounds the wait for what a working server does in a fraction
// of a second: only a broken one reaches it, however slow the machine.
const patience = time.Minute

// serveTest serves b on ln within lim until the test ends, and returns
// the address. Requests are logged, as mas serve logs them.
func serveTest(t *testing.T, ln net.Listener, b Backend, lim Limits) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, New(b, Options{Addr: ln.Addr().String(), Requests: report.New(io.Discard, false, false)}), lim)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// hourLimits are the default limits with every timeout an hour: a test
// shortens the one it is about, so that a cut can only come from that
// one, and never by chance from another.
func hourLimits() Limits {
	lim := DefaultLimits()
	lim.ReadHeaderTimeout, lim.ReadTimeout, lim.WriteTimeout, lim.IdleTimeout = time.Hour, time.Hour, time.Hour, time.Hour
	return lim
}

// waitCut reads c until the server closes it, for as long as patience:
// the server's timeout under test is a fraction of that. A server that
// closes with bytes of ours unread resets the connection: a cut too.
func waitCut(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(patience))
	switch _, err := io.Copy(io.Discard, c); {
	case err == nil, errors.Is(err, syscall.ECONNRESET):
	case errors.Is(err, os.ErrDeadlineExceeded):
		t.Fatalf("the server did not cut the connection in %v", patience)
	default:
		t.Fatalf("reading until the cut: %v", err)
	}
}

// trickle writes data to c, a byte every 10 ms, until all is sent, c
// fails or the test ends: 64 KiB would take eleven minutes, far beyond
// patience.
func trickle(t *testing.T, c net.Conn, data string) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for i := range len(data) {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if _, err := c.Write([]byte{data[i]}); err != nil {
				return
			}
		}
	}()
}

func TestSlowHeadersAreCut(t *testing.T) {
	lim := hourLimits()
	lim.ReadHeaderTimeout = 100 * time.Millisecond
	a := serveTest(t, listen(t), &fake{}, lim)
	c := dial(t, a)
	fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: %s\r\n", a) // and never the blank line
	waitCut(t, c)
}

// TestSlowBodyIsCut: the read timeout bounds the whole request, not each
// read: a body that keeps coming, a byte at a time, is cut all the same,
// and nothing of it reaches the backend.
func TestSlowBodyIsCut(t *testing.T) {
	tests := []struct{ why, path, sent, trickled string }{
		{"a slow body", "/message", "", `{"target": "00", "message": "` + strings.Repeat("h", 64<<10) + `"}`},
		{"a run lifts its timeouts only once its whole body is in: its JSON value, then a tail of spaces",
			"/runs", `{"agents": {}, "sessionMode": "isolated"}`, strings.Repeat(" ", 64<<10)},
	}
	for _, tt := range tests {
		t.Run(tt.path[1:], func(t *testing.T) {
			lim := hourLimits()
			lim.ReadTimeout = 100 * time.Millisecond
			f := &fake{}
			a := serveTest(t, listen(t), f, lim)
			c := dial(t, a)
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
				tt.path, a, len(tt.sent)+len(tt.trickled), tt.sent)
			trickle(t, c, tt.trickled)
			waitCut(t, c)
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.messages) != 0 || len(f.runs) != 0 {
				t.Errorf("%s: a cut body still reached the backend: %v %v", tt.why, f.messages, f.runs)
			}
		})
	}
}

func TestHeadersAreCapped(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxHeaderBytes = 4 << 10
	a := serveTest(t, listen(t), &fake{}, lim)
	req, _ := http.NewRequest("GET", "http://"+a+"/health", nil)
	req.Header.Set("X-Big", strings.Repeat("x", 16<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("status %d, want 431", resp.StatusCode)
	}
}

// TestRunOutlivesTheTimeouts: POST /runs waits for agents longer than the
// read and write timeouts; its context must not be cancelled nor its
// answer cut. The connection keeps the test's time: the run lets every
// deadline the server set pass, however fast or slow the machine.
func TestRunOutlivesTheTimeouts(t *testing.T) {
	ln := &testClock{Listener: listen(t)}
	f := &fake{during: ln.pass}
	a := serveTest(t, ln, f, DefaultLimits())
	resp, err := http.Post("http://"+a+"/runs", "application/json", strings.NewReader(`{"agents": {}, "sessionMode": "isolated"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("status %d: %s", resp.StatusCode, body)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.runCtx != nil {
		t.Errorf("the run's context ended early: %v", f.runCtx)
	}
	if !strings.Contains(string(body), "mas-3f0c2a9e") {
		t.Errorf("body %s", body)
	}
}

// testClock is a listener whose connections keep the test's time: a
// deadline the server sets in the future does not run until pass, which
// makes every such deadline set so far expire at once.
type testClock struct {
	net.Listener
	mu    sync.Mutex
	conns []*testClockConn
}

func (l *testClock) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &testClockConn{Conn: c}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.conns = append(l.conns, tc)
	return tc, nil
}

func (l *testClock) pass() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.pass()
	}
}

// testClockConn holds back the deadlines set in the future: the real
// connection gets none in their place. A deadline already past, or none,
// is the real connection's at once (the server aborts a read that way).
type testClockConn struct {
	net.Conn
	mu          sync.Mutex
	read, write bool // a deadline is held back
}

func (c *testClockConn) SetDeadline(t time.Time) error {
	c.SetReadDeadline(t)
	return c.SetWriteDeadline(t)
}

func (c *testClockConn) SetReadDeadline(t time.Time) error {
	return c.hold(&c.read, t, c.Conn.SetReadDeadline)
}

func (c *testClockConn) SetWriteDeadline(t time.Time) error {
	return c.hold(&c.write, t, c.Conn.SetWriteDeadline)
}

func (c *testClockConn) hold(held *bool, t time.Time, set func(time.Time) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if *held = t.After(time.Now()); *held {
		t = time.Time{}
	}
	return set(t)
}

func (c *testClockConn) pass() {
	c.mu.Lock()
	defer c.mu.Unlock()
	past := time.Unix(1, 0)
	if c.read {
		c.Conn.SetReadDeadline(past)
	}
	if c.write {
		c.Conn.SetWriteDeadline(past)
	}
	c.read, c.write = false, false
}

func TestConnectionsAreCapped(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxConns = 2
	a := serveTest(t, listen(t), &fake{}, lim)
	idle := []net.Conn{dial(t, a), dial(t, a)}
	// A third client waits: connected by the kernel, not served.
	c := dial(t, a)
	fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: %s\r\n\r\n", a)
	// Nothing signals a client left waiting: the server is given 300 ms
	// to answer it, which a broken cap needs a fraction of. A slow
	// machine can only make it answer later: then the check misses a
	// broken cap, but never fails a working one.
	c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	r := bufio.NewReader(c)
	if line, err := r.ReadString('\n'); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a third connection was served: %q, %v", line, err)
	}
	// One closes: the third is served.
	idle[0].Close()
	c.SetReadDeadline(time.Now().Add(patience))
	if line, err := r.ReadString('\n'); err != nil || line != "HTTP/1.1 200 OK\r\n" {
		t.Fatalf("after a slot freed: %q, %v", line, err)
	}
}

// TestIdleConnectionsCostNoDescriptors: a flood of idle connections holds
// at most MaxConns descriptors of the server (the rest wait in the
// kernel's queue), where it used to hold one each until the fds ran out.
func TestIdleConnectionsCostNoDescriptors(t *testing.T) {
	const flood, max = 300, 8
	lim := DefaultLimits()
	lim.MaxConns = max
	a := serveTest(t, listen(t), &fake{}, lim)
	before := openFDs(t)
	for range flood {
		dial(t, a)
	}
	// Nothing signals a connection the server declines: it is given
	// 100 ms to take more than it should, which a broken cap needs a
	// fraction of. A slow machine can only make it take fewer: then the
	// check misses a broken cap, but never fails a working one.
	time.Sleep(100 * time.Millisecond)
	// This process holds the clients' descriptors too: flood of them.
	if got := openFDs(t) - before; got > flood+max+4 {
		t.Errorf("%d idle connections opened %d descriptors: the server holds %d, cap %d", flood, got, got-flood, max)
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}
