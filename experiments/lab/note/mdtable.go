package note

import (
	"strings"
	"unicode/utf8"
)

// table is a Markdown (GitHub) table, written by hand rather than with
// github.com/olekukonko/tablewriter: tablewriter pads cells to their
// display width, which it measures with East Asian ambiguous characters
// (−, ±, µ, ×) wide or narrow depending on the environment (LANG, LC_ALL,
// RUNEWIDTH_EASTASIAN), so the same experiment would give different bytes
// on different machines; its switch for that (WithEastAsian) changes a
// process-wide setting. This writer pads by rune count and depends on
// nothing but its cells.
type table struct {
	head  []string
	right []bool // right-aligned columns
	rows  [][]string
}

// newTable starts a table with the given headers; a header that starts
// with '>' is right-aligned (the '>' is not shown).
func newTable(head ...string) *table {
	t := &table{}
	for _, h := range head {
		r := strings.HasPrefix(h, ">")
		t.head = append(t.head, strings.TrimPrefix(h, ">"))
		t.right = append(t.right, r)
	}
	return t
}

// row adds a row; missing cells are empty, extra cells are dropped.
func (t *table) row(cells ...string) {
	r := make([]string, len(t.head))
	copy(r, cells)
	t.rows = append(t.rows, r)
}

// cell makes s safe in a table cell: one line, with its pipes escaped.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// write appends the table to b, columns padded to their widest cell.
func (t *table) write(b *strings.Builder) {
	width := make([]int, len(t.head))
	all := append([][]string{t.head}, t.rows...)
	for _, r := range all {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(cell(c)), 3)
		}
	}
	line := func(r []string) {
		b.WriteString("|")
		for i, c := range r {
			c = cell(c)
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if t.right[i] {
				b.WriteString(" " + pad + c + " |")
			} else {
				b.WriteString(" " + c + pad + " |")
			}
		}
		b.WriteString("\n")
	}
	line(t.head)
	b.WriteString("|")
	for i, w := range width {
		if t.right[i] {
			b.WriteString(strings.Repeat("-", w+1) + ":|")
		} else {
			b.WriteString(":" + strings.Repeat("-", w+1) + "|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.rows {
		line(r)
	}
}
