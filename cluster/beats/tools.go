//go:build tools

// Package beats keeps the two Beats the real node runs in this module's build list (go mod tidy keeps what is imported).
package beats

import (
	_ "github.com/elastic/beats/v7/auditbeat"
	_ "github.com/elastic/beats/v7/filebeat"
)
