package callgrind

import (
	"fmt"
	"os"
)

// ConvertFile reads the callgrind output file in, checks that its totals
// match its self costs, and writes it as a gzip-compressed pprof profile
// (.pb.gz) to out with DefaultOptions. The result opens with
// "go tool pprof".
func ConvertFile(in, out string) error {
	p, err := ParseFile(in)
	if err != nil {
		return err
	}
	if err := p.Check(); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	prof, err := Convert(p, DefaultOptions)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := prof.Write(f); err != nil {
		f.Close()
		return fmt.Errorf("callgrind: writing %s: %w", out, err)
	}
	return f.Close()
}
