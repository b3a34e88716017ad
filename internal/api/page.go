package api

import (
	"bytes"
	"html/template"
	"sync"

	"mas/internal/roster"
)

// pageWindow is a window of the team as the page reads it.
type pageWindow struct {
	Name   string         `json:"name"`
	Agents []roster.Agent `json:"agents"` // its manager first
}

// indexPage is the page itself, web/index.html with the team in it as
// JSON (its windows in creation order, as roster has them): the script
// builds its prompt fields and the agents of POST /runs from it, and
// keeps no copy of the team of its own. It is made on its first request,
// not when the program starts: every command links this package, and only
// mas serve shows the page.
var indexPage = sync.OnceValue(func() []byte {
	tmpl := template.Must(template.ParseFS(webFiles, "index.html"))
	var team []pageWindow
	for _, w := range roster.Windows() {
		pw := pageWindow{Name: w.Name}
		for _, id := range w.Agents {
			a, _ := roster.Lookup(id)
			pw.Agents = append(pw.Agents, a)
		}
		team = append(team, pw)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, team); err != nil {
		panic(err)
	}
	return b.Bytes()
})
