package lab

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Limits of the project's style guide, for production code.
const (
	maxFileLines = 600
	maxFuncLines = 100
)

// labRoots are the lab's code: this folder and the commands that drive it.
var labRoots = []string{".", "../../cmd/pure-pairs", "../../cmd/pure-note", "../../cmd/pure-kvbench", "../../cmd/pure-index", "../../cmd/pure-expnote", "../../cmd/pure-rounds"}

// TestLimits_FilesAndFunctions checks every production Go file of the lab
// (tests and testdata aside): at most maxFileLines lines per file and
// maxFuncLines per function or method, function literals included in their
// enclosing function.
func TestLimits_FilesAndFunctions(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	for _, root := range labRoots {
		if _, err := os.Stat(root); os.IsNotExist(err) {
			continue
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			files++
			if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
				t.Errorf("%s: %d lines, more than %d: split it", path, n, maxFileLines)
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
				if n > maxFuncLines {
					t.Errorf("%s: func %s is %d lines, more than %d: split it", path, fn.Name.Name, n, maxFuncLines)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 50 {
		t.Errorf("checked only %d files: did the lab move?", files)
	}
}
