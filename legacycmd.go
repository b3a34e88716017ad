package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"mas/isolated"
	"mas/legacy"
)

func (a *app) agentCommand() string {
	if c := a.e.getenv("MAS_AGENT_COMMAND"); c != "" {
		return c
	}
	return "clauded"
}

func (a *app) userShell() string {
	if s := a.e.getenv("SHELL"); s != "" {
		return s
	}
	return "/bin/sh"
}

// startLegacy starts the project's shared session (the original's default).
func (a *app) startLegacy(ctx context.Context, cc *cli.Context) error {
	var prompts []prompt
	if config := cc.String("config"); config != "" {
		var err error
		if _, prompts, err = readConfig(absPath(a.e.cwd, config)); err != nil {
			return fmt.Errorf("cannot start session: %w", err)
		}
	}
	s, err := a.newLegacy(ctx, cc.Bool("skip-init"))
	if errors.Is(err, legacy.ErrRunning) {
		fmt.Fprintf(a.e.stderr, "[WARNING] Session '%s' already exists\n[INFO] Attach to it: mas attach\n[INFO] Stop it: mas stop\n", s.Name)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprint(a.e.stdout, a.info("Session: %s", s.Name)+a.info("Workspace: %s", s.Root))
	return a.afterStart(ctx, s.Root, s.Name, "mas attach", prompts, cc.Bool("no-attach"))
}

// newLegacy starts the legacy session of the project around the working
// directory; legacy.ErrRunning comes back with the running session.
func (a *app) newLegacy(ctx context.Context, skipInit bool) (*legacy.Session, error) {
	project, _, err := legacy.FindProject(a.e.cwd)
	if err != nil {
		return nil, err
	}
	s, err := legacy.Create(ctx, legacy.CreateOptions{
		Root:     a.e.resolveRoot(),
		Project:  project.Name,
		SkipInit: skipInit,
		Command:  a.agentCommand(),
		Shell:    a.userShell(),
		Tmux:     a.tmux(),
		Progress: a.e.stderr,
	})
	if err != nil && !errors.Is(err, legacy.ErrRunning) {
		return nil, fmt.Errorf("cannot start session: %w", err)
	}
	return s, err
}

// initProject makes the working directory a MAS project.
func (a *app) initProject(_ context.Context, cc *cli.Context) error {
	name := cc.String("name")
	if !cc.IsSet("name") {
		if !a.e.stdinTTY {
			return usagef("init: give the project name with --name NAME (stdin is not a terminal)")
		}
		fmt.Fprint(a.e.stderr, "Project name: ")
		line, err := bufio.NewReader(a.e.stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		name = strings.TrimSpace(line)
	}
	if strings.TrimSpace(name) == "" {
		return usagef("init: %v", legacy.ErrNoName)
	}
	if err := legacy.Init(a.e.cwd, name); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	fmt.Fprintf(a.e.stderr, "[INFO] MAS project '%s' ready in %s (session %s); next: mas start\n",
		name, a.e.cwd, legacy.SessionName(name))
	return nil
}

// stop stops the selected session, after a y/N question on a terminal.
func (a *app) stop(ctx context.Context, cc *cli.Context) error {
	sel, err := a.selectSession(ctx)
	if err != nil {
		return err
	}
	if !cc.Bool("force") {
		if !a.e.stdinTTY {
			return fmt.Errorf("stop: not stopping %s without confirmation: stdin is not a terminal (use --force)", sel.name)
		}
		fmt.Fprintf(a.e.stderr, "Stop session '%s'? (y/N): ", sel.name)
		line, _ := bufio.NewReader(a.e.stdin).ReadString('\n')
		if answer := strings.TrimSpace(line); answer != "y" && answer != "Y" {
			fmt.Fprintln(a.e.stderr, "[INFO] Cancelled")
			return nil
		}
	}
	if sel.iso != nil {
		_, err := isolated.Stop(ctx, a.tmux(), sel.root, sel.iso.ID, time.Now(), a.e.stderr)
		if unrecorded := (*isolated.RecordError)(nil); errors.As(err, &unrecorded) {
			a.stopHTTPIfIdle(ctx, sel.root)
			return err
		}
		if err != nil {
			return fmt.Errorf("cannot stop session %s: %w", sel.name, err)
		}
	} else if err := legacy.Stop(ctx, a.tmux(), sel.root, sel.name); err != nil {
		return fmt.Errorf("cannot stop session %s: %w", sel.name, err)
	}
	fmt.Fprintf(a.e.stderr, "[INFO] Stopped session %s\n", sel.name)
	a.stopHTTPIfIdle(ctx, sel.root)
	return nil
}
