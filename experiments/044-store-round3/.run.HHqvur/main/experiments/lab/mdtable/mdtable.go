// Package mdtable writes Markdown (GitHub) tables padded by rune count, the
// same bytes on every machine: the one table writer of the lab's notes (the
// pairs note and the kvbench note).
package mdtable

import (
	"strings"
	"unicode/utf8"
)

// Table is a Markdown (GitHub) table, written by hand rather than with
// github.com/olekukonko/tablewriter: tablewriter pads cells to their
// display width, which it measures with East Asian ambiguous characters
// (−, ±, µ, ×) wide or narrow depending on the environment (LANG, LC_ALL,
// RUNEWIDTH_EASTASIAN), so the same experiment would give different bytes
// on different machines; its switch for that (WithEastAsian) changes a
// process-wide setting. This writer pads by rune count and depends on
// nothing but its cells.
type Table struct {
	head  []string
	right []bool // right-aligned columns
	rows  [][]string
}

// New starts a table with the given headers; a header that starts
// with '>' is right-aligned (the '>' is not shown).
func New(head ...string) *Table {
	t := &Table{}
	for _, h := range head {
		r := strings.HasPrefix(h, ">")
		t.head = append(t.head, strings.TrimPrefix(h, ">"))
		t.right = append(t.right, r)
	}
	return t
}

// Row adds a row; missing cells are empty, extra cells are dropped.
func (t *Table) Row(cells ...string) {
	r := make([]string, len(t.head))
	copy(r, cells)
	t.rows = append(t.rows, r)
}

// Cell makes s safe in a table cell: one line, with its pipes escaped.
func Cell(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// Write appends the table to b, columns padded to their widest cell.
func (t *Table) Write(b *strings.Builder) {
	width := make([]int, len(t.head))
	all := append([][]string{t.head}, t.rows...)
	for _, r := range all {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(Cell(c)), 3)
		}
	}
	line := func(r []string) {
		b.WriteString("|")
		for i, c := range r {
			c = Cell(c)
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
