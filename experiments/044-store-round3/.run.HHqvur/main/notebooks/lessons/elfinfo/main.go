// Command elfinfo prints what an executable was built for: its ELF class,
// machine, OS ABI, whether it is statically linked, and the Go version and
// target it records.
//
//	go run ./notebooks/lessons/elfinfo FILE
package main

import (
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"log"
	"os"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) != 2 {
		log.Fatal("usage: elfinfo FILE")
	}
	f, err := elf.Open(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	static := "yes"
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			static = "no"
		}
	}
	fmt.Printf("ELF class %v, machine %v, OS ABI %v, statically linked: %s\n", f.Class, f.Machine, f.OSABI, static)
	bi, err := buildinfo.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range bi.Settings {
		if s.Key == "GOOS" || s.Key == "GOARCH" || s.Key == "CGO_ENABLED" {
			fmt.Printf("%s=%s\n", s.Key, s.Value)
		}
	}
}
