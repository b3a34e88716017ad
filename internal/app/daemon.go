package app

import "context"

// Daemon is a root's background HTTP server as the verbs see it (package
// daemon is the real one): start launches it, the last stop ends it,
// status tells whether it runs.
type Daemon interface {
	// Status tells whether the root's server runs, and its pid.
	Status(root string) HTTPStatus
	// Start launches the root's server unless one runs or MAS_HTTP=off;
	// what fails is a warning on Report.
	Start(root string)
	// StopIfIdle stops the root's server once no session of the root
	// runs on any tmux server.
	StopIfIdle(ctx context.Context, root string)
}

// The variables that pass start's listening socket and the write end of a
// pipe to the "mas serve" it launches (package daemon); privateVars keeps
// them from tmux.
const (
	ListenFDVar = "MAS_HTTP_LISTEN_FD"
	ReadyFDVar  = "MAS_HTTP_READY_FD"
)

// httpServer is the root's server as a.Daemon tells it: none without one.
func (a *App) httpServer(root string) HTTPStatus {
	if a.Daemon == nil {
		return HTTPStatus{}
	}
	return a.Daemon.Status(root)
}

// startHTTP starts the root's server, when a has a Daemon.
func (a *App) startHTTP(root string) {
	if a.Daemon != nil {
		a.Daemon.Start(root)
	}
}

// stopHTTPIfIdle stops the root's server once it is idle, when a has a
// Daemon.
func (a *App) stopHTTPIfIdle(ctx context.Context, root string) {
	if a.Daemon != nil {
		a.Daemon.StopIfIdle(ctx, root)
	}
}
