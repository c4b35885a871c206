package nb

import (
	"fmt"
	"path"
	"strings"
	"time"
)

// Kind says whether check compares a cell's output.
type Kind string

const (
	// Checked outputs are exact (instruction counts under callgrind,
	// deterministic text): check re-runs the cell and fails when the output
	// differs from the stored one.
	Checked Kind = "checked"
	// Varies outputs depend on the machine and the moment (times, profiles):
	// check re-runs the cell and requires only that it succeeds.
	Varies Kind = "varies"
)

// DefaultTimeout is how long a cell may run when it names no timeout=.
const DefaultTimeout = 5 * time.Minute

// Cell is a fenced code block marked to run: its info string is
// "LANG run id=ID checked|varies [timeout=DURATION] [plot=FILE.png]".
type Cell struct {
	ID      string        // unique in its notebook; names its output region
	Lang    string        // "sh" (run by bash -eo pipefail) or "go" (go run)
	Kind    Kind          // Checked or Varies
	Timeout time.Duration // DefaultTimeout unless timeout= says otherwise
	Plot    string        // file the cell writes into $NB_ASSETS, or ""
	Code    string        // the block's content
	Line    int           // 1-based line of the opening fence

	// Output is the stored output (nil when the notebook holds none yet).
	// SetOutput replaces it; Render writes it back.
	Output *Output
	dirty  bool
}

// Output is a cell's output as the notebook stores it.
type Output struct {
	Text  string // normalised text (see Normalize); may be empty
	Image string // link to the plot, relative to the notebook, or ""
}

// Notebook is a parsed notebook: its cells in order, and the raw text
// around them, kept byte for byte.
type Notebook struct {
	Cells []*Cell
	segs  []segment
}

// segment is a piece of the file: plain text, a cell's fenced block, or a
// cell's output region.
type segment struct {
	raw  string
	cell *Cell // the cell whose block this is, or nil
	out  *Cell // the cell whose output region this is, or nil
}

// Parse reads a notebook. It fails on a cell without id or kind, a
// duplicate id, an unknown attribute or language, an output region with no
// cell before it, and an unclosed fence or region, naming the line.
func Parse(src string) (*Notebook, error) {
	nb := &Notebook{}
	byID := map[string]*Cell{}
	lines := splitLines(src)
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			nb.segs = append(nb.segs, segment{raw: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(lines); {
		ln := lines[i]
		if id, ok := regionStart(ln); ok {
			end, out, err := parseRegion(lines, i, id)
			if err != nil {
				return nil, err
			}
			c := byID[id]
			if c == nil {
				return nil, fmt.Errorf("line %d: output region %q has no cell with that id before it: delete the region or give a cell id=%s", i+1, id, id)
			}
			if c.Output != nil {
				return nil, fmt.Errorf("line %d: a second output region for cell %q: delete one", i+1, id)
			}
			c.Output = out
			flush()
			nb.segs = append(nb.segs, segment{raw: strings.Join(lines[i:end], ""), out: c})
			i = end
			continue
		}
		fch, flen, info, ok := fenceOpen(ln)
		if !ok {
			text.WriteString(ln)
			i++
			continue
		}
		end := i + 1
		for end < len(lines) && !fenceClose(lines[end], fch, flen) {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("line %d: code block never closed: add a closing %s", i+1, strings.Repeat(string(fch), flen))
		}
		end++ // include the closing fence
		c, err := parseInfo(info, i+1)
		if err != nil {
			return nil, err
		}
		if c == nil { // a block that does not run
			text.WriteString(strings.Join(lines[i:end], ""))
			i = end
			continue
		}
		if byID[c.ID] != nil {
			return nil, fmt.Errorf("line %d: cell id %q is already used on line %d: ids must be unique", i+1, c.ID, byID[c.ID].Line)
		}
		byID[c.ID] = c
		c.Code = strings.Join(lines[i+1:end-1], "")
		flush()
		nb.segs = append(nb.segs, segment{raw: strings.Join(lines[i:end], ""), cell: c})
		nb.Cells = append(nb.Cells, c)
		i = end
	}
	flush()
	return nb, nil
}

// parseInfo reads a fence's info string; it returns nil for a block that
// is not marked to run.
func parseInfo(info string, line int) (*Cell, error) {
	words := strings.Fields(info)
	if len(words) < 2 || words[1] != "run" {
		return nil, nil
	}
	c := &Cell{Lang: words[0], Line: line, Timeout: DefaultTimeout}
	if c.Lang != "sh" && c.Lang != "go" {
		return nil, fmt.Errorf("line %d: cell language %q: use sh or go", line, c.Lang)
	}
	for _, w := range words[2:] {
		k, v, _ := strings.Cut(w, "=")
		switch {
		case w == string(Checked) || w == string(Varies):
			if c.Kind != "" {
				return nil, fmt.Errorf("line %d: cell marked both %s and %s: choose one", line, c.Kind, w)
			}
			c.Kind = Kind(w)
		case k == "id" && validID(v):
			c.ID = v
		case k == "id":
			return nil, fmt.Errorf("line %d: cell id %q: use letters, digits and dashes", line, v)
		case k == "timeout":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("line %d: timeout=%s: give a positive Go duration such as 90s or 4m", line, v)
			}
			c.Timeout = d
		case k == "plot" && validID(strings.TrimSuffix(v, ".png")) && path.Ext(v) == ".png":
			c.Plot = v
		case k == "plot":
			return nil, fmt.Errorf("line %d: plot=%s: name a .png file (letters, digits, dashes), which the cell writes into $NB_ASSETS", line, v)
		default:
			return nil, fmt.Errorf("line %d: unknown cell attribute %q: use id=, checked or varies, timeout=, plot=", line, w)
		}
	}
	if c.ID == "" {
		return nil, fmt.Errorf("line %d: cell has no id: add id=NAME to its fence line", line)
	}
	if c.Kind == "" {
		return nil, fmt.Errorf("line %d: cell %q is neither checked nor varies: mark it checked (exact output, compared by check) or varies (times, profiles)", line, c.ID)
	}
	return c, nil
}

func validID(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// splitLines splits s after every newline; the last line may lack one.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// fenceOpen recognises a CommonMark code fence: up to three spaces, then
// three or more backticks or tildes, then the info string.
func fenceOpen(line string) (ch byte, n int, info string, ok bool) {
	s := strings.TrimRight(line, "\r\n")
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, "", false
	}
	ch = t[0]
	for n < len(t) && t[n] == ch {
		n++
	}
	if n < 3 || (ch == '`' && strings.IndexByte(t[n:], '`') >= 0) {
		return 0, 0, "", false
	}
	return ch, n, strings.TrimSpace(t[n:]), true
}

func fenceClose(line string, ch byte, n int) bool {
	t := strings.TrimSpace(line)
	if len(t) < n || len(line)-len(strings.TrimLeft(line, " ")) > 3 {
		return false
	}
	return strings.Trim(t, string(ch)) == ""
}
