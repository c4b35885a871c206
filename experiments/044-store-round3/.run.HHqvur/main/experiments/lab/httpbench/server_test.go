package httpbench

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestStart_ListeningLine_Stop(t *testing.T) {
	s, err := Start(context.Background(), exec.Command("sh", "-c", `trap 'exit 0' TERM; echo listening 127.0.0.1:4321; echo ready >&2; while :; do sleep 0.05; done`), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if s.Addr != "127.0.0.1:4321" {
		t.Errorf("Addr = %q, want 127.0.0.1:4321", s.Addr)
	}
	if err := s.Alive(); err != nil {
		t.Errorf("Alive() = %v while it runs", err)
	}
	if err := s.Stop(5 * time.Second); err != nil {
		t.Errorf("Stop: %v, want a clean exit", err)
	}
	if s.ExitCode() != 0 || s.Alive() == nil {
		t.Errorf("after Stop: exit code %d, Alive() %v: want 0 and an error", s.ExitCode(), s.Alive())
	}
}

func TestStart_Failures(t *testing.T) {
	for _, tc := range []struct {
		name, script, want string
	}{
		{"exits", `echo "no such store" >&2; exit 3`, "exited before it printed"},
		{"other line", `echo hello; exec sleep 5`, `printed "hello" first`},
		{"silent", `exec sleep 5`, "printed no \"listening HOST:PORT\" line within"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Start(context.Background(), exec.Command("sh", "-c", tc.script), 300*time.Millisecond)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Start: %v, want an error with %q", err, tc.want)
			}
			if tc.name == "exits" && !strings.Contains(err.Error(), "no such store") {
				t.Errorf("Start: %v, want the server's stderr in it", err)
			}
		})
	}
}

func TestStop_KillsAServerThatIgnoresSIGTERM(t *testing.T) {
	s, err := Start(context.Background(), exec.Command("sh", "-c", `trap '' TERM; echo listening 127.0.0.1:1; while :; do sleep 0.05; done`), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Stop(200 * time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Stop: %v, want it to say the server was killed", err)
	}
}
