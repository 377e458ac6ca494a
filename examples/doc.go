// Package examples holds runnable plinth programs, one project directory
// each (quickstart, parallel). They need nothing but Go: only the built-in
// providers and the local state store. Its tests run every example through
// the real command line, and follow the README from a fresh clone.
package examples
