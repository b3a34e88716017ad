package api

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits bound what one client can hold of the server: time to send its
// headers and body, time to read the answer, time kept idle, header size,
// and connections open at once.
type Limits struct {
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration // headers and body
	WriteTimeout      time.Duration // from the end of the headers to the end of the answer; POST /runs lifts it
	IdleTimeout       time.Duration
	MaxHeaderBytes    int
	// MaxConns caps the connections open at once. A further client
	// waits in the kernel's listen queue, holding no descriptor of ours,
	// until one closes; the timeouts above make sure one does.
	MaxConns int
}

// DefaultLimits are the limits of mas serve. A 1 MiB body on loopback
// takes milliseconds; a browser keeps about six connections per origin.
func DefaultLimits() Limits {
	return Limits{
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		MaxConns:          64,
	}
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

// Serve serves h on ln within lim until ctx ends, then shuts down
// gracefully.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, lim Limits) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		WriteTimeout:      lim.WriteTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
		ConnContext:       withConnPeer,
	}
	if lim.MaxConns > 0 {
		ln = limitListener(ln, lim.MaxConns)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}

// connLimiter accepts a connection only while fewer than cap(slots) are
// open: it takes the slot before it accepts, so a waiting client costs
// no descriptor.
type connLimiter struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func limitListener(ln net.Listener, n int) net.Listener {
	return &connLimiter{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

func (l *connLimiter) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.slots }}, nil
}

func (l *connLimiter) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitedConn gives its slot back when it is closed, once.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
