package nginx

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestConfig_RefusesBadSettings(t *testing.T) {
	if _, err := Config(Settings{Prefix: "/tmp/x", Addr: "8080"}); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("address without a host: %v", err)
	}
	if _, err := Config(Settings{Prefix: "rel/dir", Addr: "127.0.0.1:1"}); err == nil {
		t.Errorf("relative prefix accepted")
	}
	conf, err := Config(Settings{Prefix: "/p", Addr: "127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"listen 127.0.0.1:9 ", "worker_processes 1;", "access_log off;", "daemon off;", "root /p/root;"} {
		if !strings.Contains(conf, want) {
			t.Errorf("configuration lacks %q:\n%s", want, conf)
		}
	}
}

func TestBodies_Sizes(t *testing.T) {
	if n := len(SmallBody(7)); n != SmallSize {
		t.Errorf("small body %d B, want %d", n, SmallSize)
	}
	if n := len(BigBody()); n != BigSize {
		t.Errorf("big body %d B, want %d", n, BigSize)
	}
}

// TestNginx_ServesDocuments runs the Debian nginx on the prepared prefix.
func TestNginx_ServesDocuments(t *testing.T) {
	if _, err := os.Stat(Binary); err != nil {
		t.Skipf("nginx is not installed at %s (apt-get install nginx-light): %v", Binary, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	prefix := t.TempDir()
	if _, err := Prepare(prefix, addr); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(Binary, append(Args(prefix), "-t")...).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t: %v\n%s", err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := Command(ctx, prefix)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	var resp *http.Response
	for deadline := time.Now().Add(5 * time.Second); ; {
		resp, err = http.Get("http://" + addr + "/docs/d05")
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("nginx did not answer: %v\n%s", err, stderr.String())
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(body, SmallBody(5)) {
		t.Errorf("GET /docs/d05: %d %q", resp.StatusCode, body)
	}
	resp, err = http.Get("http://" + addr + "/docs/big")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(body) != BigSize {
		t.Errorf("GET /docs/big: %d, %d B", resp.StatusCode, len(body))
	}
	if resp, err := http.Get("http://" + addr + "/docs/none"); err != nil || resp.StatusCode != 404 {
		t.Errorf("GET /docs/none: %v %v, want 404", resp, err)
	}
}
