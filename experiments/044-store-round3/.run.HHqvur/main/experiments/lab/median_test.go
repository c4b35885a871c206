package lab

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// middle matches the index of a sorted slice's middle element, the mark of
// a median computed by hand: s[n/2], xs[len(xs)/2-1].
var middle = regexp.MustCompile(`\[[a-z]*\(?[a-z]*\)?/2(-1)?\]`)

// The module has one median, stats.Median: no other production function
// sorts values and takes their middle element. (Index arithmetic such as a
// B-tree split is not a median: a function counts only when it also sorts.)
func TestOneMedian_InTheModule(t *testing.T) {
	fset := token.NewFileSet()
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		for _, decl := range src.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Body.Pos()).Offset, fset.Position(fn.Body.End()).Offset
			body := string(readRange(t, path, start, end))
			if !middle.MatchString(body) || !strings.Contains(strings.ToLower(body), "sort") {
				continue
			}
			if fn.Name.Name == "Median" && strings.HasSuffix(filepath.ToSlash(path), "experiments/lab/stats/median.go") {
				continue
			}
			t.Errorf("%s: func %s sorts and takes the middle element: use stats.Median, the module's one median", path, fn.Name.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Errorf("checked only %d files of the module", checked)
	}
}

// readRange returns bytes [start, end) of the file at path.
func readRange(t *testing.T, path string, start, end int) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b[start:end]
}
