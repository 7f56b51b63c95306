// Verifies a webhook from Herald with Go's standard library alone (Go 1.18 or later): copy
// VerifyHeraldWebhook and its types into your receiver's package.
//
// The scheme, from docs/webhooks.md: `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
// keyed with the endpoint's whole secret (`whsec_…`, prefix included) as UTF-8 text.
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

const toleranceSeconds = 300

type WebhookEvent struct {
	ID        string          `json:"id"`
	Event     string          `json:"event"`
	CreatedAt string          `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

// VerificationError is a request that must not be trusted: answer it with 400. Reason says why.
type VerificationError struct{ Reason, Detail string }

func (e *VerificationError) Error() string { return e.Reason + ": " + e.Detail }

// VerifyHeraldWebhook returns the event when the request is Herald's. rawBody: the body exactly as received
// (io.ReadAll(r.Body), never parsed JSON); header: r.Header.Get("Service-Signature"); secrets: the secret,
// or the new and the old one while rotating.
func VerifyHeraldWebhook(rawBody []byte, header string, secrets []string, now time.Time) (*WebhookEvent, error) {
	if strings.TrimSpace(header) == "" {
		return nil, &VerificationError{"missing_header", "no Service-Signature header"}
	}
	timestamp := int64(-1)
	var signatures [][]byte
	for _, item := range strings.Split(header, ",") {
		key, value, _ := strings.Cut(strings.TrimSpace(item), "=")
		switch key {
		case "t":
			parsed, err := strconv.ParseUint(value, 10, 63)
			if timestamp >= 0 || err != nil {
				return nil, &VerificationError{"malformed_header", "t= must appear once, in whole unix seconds"}
			}
			timestamp = int64(parsed)
		case "v1": // several during a rotation; other schemes are ignored
			signatures = append(signatures, []byte(value))
		}
	}
	if timestamp < 0 || len(signatures) == 0 {
		return nil, &VerificationError{"malformed_header", "expected t=<unix seconds>,v1=<signature>"}
	}
	matched := false
	for _, secret := range secrets {
		mac := hmac.New(sha256.New, []byte(secret))
		fmt.Fprintf(mac, "%d.", timestamp)
		mac.Write(rawBody)
		expected := []byte(hex.EncodeToString(mac.Sum(nil)))
		for _, given := range signatures {
			matched = hmac.Equal(given, expected) || matched // constant-time
		}
	}
	if !matched {
		return nil, &VerificationError{"signature_mismatch", "not signed with this secret over this exact body"}
	}
	// Checked after the signature: a genuine request outside 5 minutes is a replay, or a clock is off.
	if age := now.Unix() - timestamp; age > toleranceSeconds {
		return nil, &VerificationError{"timestamp_too_old", fmt.Sprintf("signed %d s ago", age)}
	} else if -age > toleranceSeconds {
		return nil, &VerificationError{"timestamp_in_future", fmt.Sprintf("signed %d s ahead of this clock", -age)}
	}
	var event WebhookEvent
	if err := json.Unmarshal(rawBody, &event); err != nil {
		return nil, err
	}
	return &event, nil
}

// As a program, to check a captured request: go run verify.go '<Service-Signature>' [now, unix seconds] < body
func main() {
	var secrets []string
	for _, name := range []string{"HERALD_WEBHOOK_SECRET", "HERALD_WEBHOOK_SECRET_OLD"} {
		if value := os.Getenv(name); value != "" {
			secrets = append(secrets, value)
		}
	}
	body, err := io.ReadAll(os.Stdin)
	if len(secrets) == 0 || len(os.Args) < 2 || err != nil {
		fmt.Fprintln(os.Stderr, "usage: HERALD_WEBHOOK_SECRET=whsec_… go run verify.go '<Service-Signature>' [now] < body")
		os.Exit(2)
	}
	now := time.Now()
	if len(os.Args) > 2 {
		seconds, _ := strconv.ParseInt(os.Args[2], 10, 64)
		now = time.Unix(seconds, 0)
	}
	event, err := VerifyHeraldWebhook(body, os.Args[1], secrets, now)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refused:", err)
		os.Exit(1)
	}
	fmt.Println("verified", event.Event, event.ID)
}
