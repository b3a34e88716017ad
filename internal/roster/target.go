package roster

import (
	"slices"
	"strings"
)

// groups are the named targets; each expands to these ids in this order.
var groups = map[string][]string{
	"window0": {"00"},
	"window1": {"10", "11", "12", "13"},
	"window2": {"20", "21", "22", "23"},
	"window3": {"30", "31", "32", "33"},
	// The later versions of the bash tool named the windows by number,
	// too; no agent id has one digit.
	"0":           {"00"},
	"1":           {"10", "11", "12", "13"},
	"2":           {"20", "21", "22", "23"},
	"3":           {"30", "31", "32", "33"},
	"meta":        {"00"},
	"design":      {"10", "11", "12", "13"},
	"development": {"20", "21", "22", "23"},
	"business":    {"30", "31", "32", "33"},
	"managers":    {"00", "10", "20", "30"},
	"workers":     {"11", "12", "13", "21", "22", "23", "31", "32", "33"},
	"all":         {"00", "10", "11", "12", "13", "20", "21", "22", "23", "30", "31", "32", "33"},
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
	if _, ok := names[id]; ok {
		return []string{id}, true
	}
	return nil, false
}
