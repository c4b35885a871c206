package nb

import (
	"fmt"
	"strings"
)

// An output region is what the runner writes below a cell:
//
//	<!-- output ID -->
//	```text
//	the cell's output
//	```
//	![ID](NAME/FILE.png)
//	<!-- end output ID -->
//
// The text block is left out when a plotting cell printed nothing, the image
// line when the cell plots nothing. The fence is longer than any run of
// backticks in the text. The comments are invisible on a code host; the
// block and the image are what a reader sees.

const (
	regionOpen  = "<!-- output "
	regionClose = "<!-- end output "
	commentEnd  = " -->"
)

func regionStart(line string) (string, bool) {
	s := strings.TrimRight(line, "\r\n")
	if !strings.HasPrefix(s, regionOpen) || !strings.HasSuffix(s, commentEnd) {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimPrefix(s, regionOpen), commentEnd), true
}

// parseRegion reads the region starting at lines[i]; it returns the index
// after its end line and the output it holds.
func parseRegion(lines []string, i int, id string) (int, *Output, error) {
	endLine := regionClose + id + commentEnd
	out := &Output{}
	j := i + 1
	for ; j < len(lines); j++ {
		s := strings.TrimRight(lines[j], "\r\n")
		if s == endLine {
			return j + 1, out, nil
		}
		if ch, n, _, ok := fenceOpen(lines[j]); ok {
			k := j + 1
			for k < len(lines) && !fenceClose(lines[k], ch, n) {
				k++
			}
			if k == len(lines) {
				return 0, nil, fmt.Errorf("line %d: output block of %q never closed: run the notebook again to regenerate it", j+1, id)
			}
			out.Text = strings.TrimSuffix(strings.Join(lines[j+1:k], ""), "\n")
			j = k
			continue
		}
		if strings.HasPrefix(s, "![") && strings.HasSuffix(s, ")") {
			if _, link, ok := strings.Cut(s, "]("); ok {
				out.Image = strings.TrimSuffix(link, ")")
				continue
			}
		}
		if strings.TrimSpace(s) != "" {
			return 0, nil, fmt.Errorf("line %d: unexpected text inside the output region of %q: outputs are generated; write text outside the region", j+1, id)
		}
	}
	return 0, nil, fmt.Errorf("line %d: output region of %q has no %q line: run the notebook again to regenerate it", i+1, id, endLine)
}

func renderRegion(id string, out *Output) string {
	var b strings.Builder
	b.WriteString(regionOpen + id + commentEnd + "\n")
	if out.Text != "" || out.Image == "" {
		fence := strings.Repeat("`", max(3, longestRun(out.Text, '`')+1))
		b.WriteString(fence + "text\n")
		if out.Text != "" {
			b.WriteString(out.Text + "\n")
		}
		b.WriteString(fence + "\n")
	}
	if out.Image != "" {
		fmt.Fprintf(&b, "![%s](%s)\n", id, out.Image)
	}
	b.WriteString(regionClose + id + commentEnd + "\n")
	return b.String()
}

func longestRun(s string, ch byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == ch {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// Normalize makes a cell's raw output storable: line endings become \n,
// trailing spaces and tabs go from every line, and trailing blank lines
// from the end. Check compares normalised texts.
func Normalize(raw string) string {
	lines := strings.Split(strings.ReplaceAll(raw, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// SetOutput replaces a cell's stored output; Render then writes the new
// region (and only regions whose output changed are rewritten).
func (c *Cell) SetOutput(out Output) {
	if c.Output != nil && *c.Output == out {
		return
	}
	c.Output = &out
	c.dirty = true
}

// Render writes the notebook back. Text, cells and unchanged output regions
// come out byte for byte as they were read; a changed output is written as a
// fresh region, and a cell's first output is inserted below the cell after
// a blank line.
func (nb *Notebook) Render() string {
	var b strings.Builder
	for i, s := range nb.segs {
		switch {
		case s.out != nil && s.out.dirty:
			b.WriteString(renderRegion(s.out.ID, s.out.Output))
		case s.cell != nil && s.cell.dirty && !nb.hasRegion(s.cell):
			b.WriteString(s.raw)
			if !strings.HasSuffix(s.raw, "\n") {
				b.WriteString("\n")
			}
			b.WriteString("\n" + renderRegion(s.cell.ID, s.cell.Output))
			if i+1 < len(nb.segs) && !strings.HasPrefix(nb.segs[i+1].raw, "\n") {
				b.WriteString("\n")
			}
		default:
			b.WriteString(s.raw)
		}
	}
	return b.String()
}

func (nb *Notebook) hasRegion(c *Cell) bool {
	for _, s := range nb.segs {
		if s.out == c {
			return true
		}
	}
	return false
}
