package roster

import (
	"slices"
	"strconv"
	"strings"
)

// groups are the named targets, each with the ids it expands to, in
// order: each window by its name, as windowN and as N (the later versions
// of the bash tool named the windows by number too; no agent id has one
// digit), then managers (the first agent of each window), workers (the
// others) and all.
var groups = makeGroups()

// The targets that gather agents across the windows.
const (
	managers = "managers" // the first agent of each window
	workers  = "workers"  // the others
	everyone = "all"      // the whole team
)

// Groups are the names of the targets that gather agents across the
// windows, in the order help and completion list them.
func Groups() []string { return []string{managers, workers, everyone} }

func makeGroups() map[string][]string {
	g := map[string][]string{}
	for i, w := range Windows() {
		n := strconv.Itoa(i)
		g[w.Name], g["window"+n], g[n] = w.Agents, w.Agents, w.Agents
		g[managers] = append(g[managers], w.Agents[0])
		g[workers] = append(g[workers], w.Agents[1:]...)
	}
	g[everyone] = IDs()
	return g
}

// Targets are the names one part of a target may be, as completion offers
// them: the ids, the ids as agent-NN, each window by name and as windowN,
// then managers, workers and all. A window's bare number, which Expand
// takes too, is not offered: it is there for the scripts of the bash
// tool's later versions.
func Targets() []string {
	names := IDs()
	for _, id := range IDs() {
		names = append(names, "agent-"+id)
	}
	for i, w := range Windows() {
		names = append(names, w.Name, "window"+strconv.Itoa(i))
	}
	return append(names, Groups()...)
}

// Expand turns a target into agent ids, in order and with duplicates
// kept ("00,00" names agent 00 twice, as "list -u" of the bash tool
// prints it twice). A target is an agent id ("12"), "agent-12", a window or
// unit name ("window1", "design") or number ("1"), "managers", "workers",
// "all", or a comma-separated list of those whose parts are trimmed of
// blanks.
// Matching is case-sensitive. Parts that name no agent — including "01",
// "02" and "03", which look like ids but have no seat — are returned in
// unknown; empty parts of a list are ignored.
func Expand(target string) (ids, unknown []string) {
	for part := range strings.SplitSeq(target, ",") {
		if strings.Contains(target, ",") {
			part = strings.TrimSpace(part)
		}
		if part == "" {
			continue
		}
		if named, ok := expandOne(part); ok {
			ids = append(ids, named...)
		} else {
			unknown = append(unknown, part)
		}
	}
	return ids, unknown
}

// Recipients is Expand for a message: each agent once and each unknown
// part once, in the order first named, so that an agent named several ways
// ("00,00,agent-00,meta", "design,11", "all,00") receives the text once
// and is counted once.
func Recipients(target string) (ids, unknown []string) {
	ids, unknown = Expand(target)
	return uniq(ids), uniq(unknown)
}

func uniq(s []string) []string {
	var out []string
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// expandOne expands one part of a target list.
func expandOne(part string) ([]string, bool) {
	if g, ok := groups[part]; ok {
		return g, true
	}
	id := strings.TrimPrefix(part, "agent-")
	if _, ok := Lookup(id); ok {
		return []string{id}, true
	}
	return nil, false
}
