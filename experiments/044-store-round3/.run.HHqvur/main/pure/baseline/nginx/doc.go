// Package nginx prepares nginx (the Debian package) to serve the HTTP
// contract's static documents, as this machine's ceiling for GETs: the
// 64 documents /docs/d00../docs/d63 of 64 B and /docs/big of 1 MiB, from
// files, with one worker process and no access log.
//
// Prepare writes the documents and the configuration into a fresh prefix
// directory; the caller runs
//
//	nginx -p PREFIX -c nginx.conf
//
// (the configuration says `daemon off`, so the master stays in the
// foreground as the caller's child). nginx answers PUTs and the scoreboard
// with 404/405: it is measured on static GETs only.
//
// # Pieces
//
//	nginx.conf.tmpl  the configuration template (text/template)
//	nginx.go         Prepare, Config, Command, the documents' contents
package nginx
