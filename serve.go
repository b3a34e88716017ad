package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/urfave/cli/v2"

	"mas/api"
)

// httpAddr is where the HTTP API listens: --addr, else MAS_HTTP_HOST and
// MAS_HTTP_PORT, else 127.0.0.1:8765.
func (a *app) httpAddr(flag string) string {
	if flag != "" {
		return flag
	}
	host, port := a.e.getenv("MAS_HTTP_HOST"), a.e.getenv("MAS_HTTP_PORT")
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "8765"
	}
	return net.JoinHostPort(host, port)
}

// listenFDEnv passes a listening socket from "start" to the "serve" it
// launches, so the port is known to be taken before the server runs.
const listenFDEnv = "MAS_HTTP_LISTEN_FD"

func (a *app) serve(ctx context.Context, cc *cli.Context) error {
	if err := a.holdPidFile(); err != nil {
		return err
	}
	token := a.e.getenv("MAS_API_TOKEN")
	var ln net.Listener
	if fd := a.e.getenv(listenFDEnv); fd != "" {
		n, err := strconv.Atoi(fd)
		if err != nil {
			return fmt.Errorf("serve: %s=%q", listenFDEnv, fd)
		}
		f := os.NewFile(uintptr(n), "listener")
		if ln, err = net.FileListener(f); err != nil {
			return fmt.Errorf("serve: inherited listener: %w", err)
		}
		f.Close()
		if err := api.CheckAddr(ln.Addr().String(), token); err != nil {
			return err
		}
	} else {
		addr := a.httpAddr(cc.String("addr"))
		if err := api.CheckAddr(addr, token); err != nil {
			return usagef("serve: %v", err)
		}
		var err error
		if ln, err = net.Listen("tcp", addr); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	}
	fmt.Fprintf(a.e.stderr, "[INFO] MAS API listening on http://%s (root %s)\n", ln.Addr(), a.e.resolveRoot())
	// Host headers must name the listening port, or the configured host
	// (which an inherited listener does not know). With a token, New
	// prints the page's login URL.
	host, _, _ := net.SplitHostPort(a.httpAddr(cc.String("addr")))
	srv := api.New(backend{a}, api.Options{Token: token, Addr: ln.Addr().String(), Host: host, Log: a.e.stderr})
	err := api.Serve(ctx, ln, srv, api.DefaultLimits())
	fmt.Fprintln(a.e.stderr, "[INFO] MAS API stopped")
	return err
}
