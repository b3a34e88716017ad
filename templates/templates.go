// Package templates holds the default files each agent's directory starts
// from: unit/NN/ for the thirteen agents and workflows/ for the team.
package templates

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

//go:embed all:unit all:workflows
var files embed.FS

// Install fills unitDir with one directory per agent id and workflowsDir
// with the workflow files. Agent NN comes from srcRoot/unit/NN when that
// directory exists, else from the embedded templates; the workflows come
// from srcRoot/workflows when it exists, else from the embedded ones.
// srcRoot may be "" to use only the embedded templates. Files are copied,
// never linked, and are writable by their owner even when the templates
// are read-only.
func Install(srcRoot, unitDir, workflowsDir string, ids []string) error {
	return install(srcRoot, unitDir, workflowsDir, ids, false)
}

// Fill is Install into directories that may already hold files: files that
// exist are kept as they are, only missing ones are added.
func Fill(unitDir, workflowsDir string, ids []string) error {
	return install("", unitDir, workflowsDir, ids, true)
}

func install(srcRoot, unitDir, workflowsDir string, ids []string, keep bool) error {
	if err := os.MkdirAll(unitDir, 0o755); err != nil {
		return err
	}
	// Each tree is copied by its own goroutine; the first error wins.
	errs := make([]error, len(ids)+1)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			errs[i] = installTree(srcRoot, path.Join("unit", id), filepath.Join(unitDir, id), keep)
		})
	}
	wg.Go(func() { errs[len(ids)] = installTree(srcRoot, "workflows", workflowsDir, keep) })
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// installTree copies the template tree rel (slash-separated) to dst; with
// keep, files already in dst are left alone.
func installTree(srcRoot, rel, dst string, keep bool) error {
	var src fs.FS = files
	if srcRoot != "" {
		disk := filepath.Join(srcRoot, filepath.FromSlash(rel))
		if fi, err := os.Stat(disk); err == nil && fi.IsDir() {
			src, rel = os.DirFS(disk), "."
		}
	}
	// A new tree's parent exists: one mkdir per directory, no lookups.
	mkdir := os.Mkdir
	if keep {
		mkdir = os.MkdirAll
	}
	return fs.WalkDir(src, rel, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		sub := strings.TrimPrefix(p, rel+"/")
		if p == rel {
			sub = ""
		}
		target := filepath.Join(dst, filepath.FromSlash(sub))
		switch {
		case d.IsDir():
			return mkdir(target, 0o755)
		case d.Type().IsRegular():
			if _, err := os.Lstat(target); keep && err == nil {
				return nil
			}
			return copyFile(src, p, target)
		default:
			return fmt.Errorf("template %s: not a regular file or directory", p)
		}
	})
}

// copyFile makes dst, which must not exist, a copy of the template name,
// writable by its owner (an embedded template's mode is 0444).
func copyFile(src fs.FS, name, dst string) error {
	in, err := src.Open(name)
	if err != nil {
		return err
	}
	defer in.Close()
	mode := fs.FileMode(0o644)
	if fi, err := in.Stat(); err == nil {
		mode = fi.Mode().Perm() | 0o600
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if err := clone(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy template %s: %w", name, err)
	}
	return out.Close()
}

// clone copies in to out, as a reflink (FICLONE) when both are files on a
// filesystem that shares extents, else byte by byte. An embedded template
// (a small file in memory) is read whole and written in one call: io.Copy
// would take 32 KiB of new memory for each of them.
func clone(out *os.File, in fs.File) error {
	f, ok := in.(*os.File)
	if !ok {
		data, err := io.ReadAll(in)
		if err != nil {
			return err
		}
		_, err = out.Write(data)
		return err
	}
	const ficlone = 0x40049409
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, out.Fd(), ficlone, f.Fd()); errno == 0 {
		return nil
	}
	_, err := io.Copy(out, f)
	return err
}
