// yaml2json reads YAML or JSON streams exactly as kubectl does and prints the JSON documents kubectl would send: the
// reference for the library's reader (test/model/_manifest-reader.differential.test.ts).
//
// The loop is kubectl's (k8s.io/cli-runtime/pkg/resource StreamVisitor.Visit): apimachinery's YAMLOrJSONDecoder
// splits the stream and converts each YAML document with sigs.k8s.io/yaml (go-yaml v2 underneath); a document that is
// empty or null after trimming is skipped.
//
// Input on stdin: a JSON array of streams (strings). Output on stdout: a JSON array, per stream either
// {"docs": [<document JSON>, ...]} or {"error": "<message>"}. One process reads a whole batch.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

type result struct {
	Docs  []json.RawMessage `json:"docs,omitempty"`
	Error *string           `json:"error,omitempty"`
}

func read(stream string) (res result) {
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("panic: %v", r)
			res = result{Error: &msg}
		}
	}()
	d := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(stream), 4096)
	docs := []json.RawMessage{}
	for {
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			if err == io.EOF {
				return result{Docs: docs}
			}
			msg := err.Error()
			return result{Error: &msg}
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		docs = append(docs, raw)
	}
}

func main() {
	var streams []string
	if err := json.NewDecoder(os.Stdin).Decode(&streams); err != nil {
		fmt.Fprintln(os.Stderr, "yaml2json: stdin must be a JSON array of strings:", err)
		os.Exit(2)
	}
	results := make([]result, len(streams))
	for i, s := range streams {
		results[i] = read(s)
	}
	out, err := json.Marshal(results)
	if err != nil {
		fmt.Fprintln(os.Stderr, "yaml2json:", err)
		os.Exit(1)
	}
	os.Stdout.Write(out)
}
