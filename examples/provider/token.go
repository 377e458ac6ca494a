package example

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// TokenArgs are the arguments of the ephemeral token.
type TokenArgs struct {
	Server string `plinth:"server" validate:"len=1..32" doc:"The server the token is for."`
	TTL    string `plinth:"ttl,optional" default:"1h" validate:"duration" doc:"How long the token lives before it is renewed."`
}

// TokenResult is an opened token.
type TokenResult struct {
	Token string `plinth:"token,secret" doc:"The token; use it where an ephemeral value is allowed, such as admin_password."`
}

// Token is an ephemeral resource: a short-lived token issued for one run
// and revoked at its end, never recorded in state. The example logs each
// issue, renewal and revocation in tokens.log, so tests can see them.
type Token struct{}

var (
	_ provider.Ephemeral[TokenArgs, TokenResult] = Token{}
	_ provider.Renewer                           = Token{}
	_ provider.Closer                            = Token{}
)

// Open issues a token; its private data is the token's ID.
func (Token) Open(ctx context.Context, op provider.OpenOp[TokenArgs]) (provider.OpenResult[TokenResult], error) {
	ttl, _ := time.ParseDuration(op.Args.TTL) // validated by the tag
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	id := token[:8]
	if err := store(ctx).log(fmt.Sprintf("issued %s for %s hash %s", id, op.Args.Server, hash(token))); err != nil {
		return provider.OpenResult[TokenResult]{}, err
	}
	return provider.OpenResult[TokenResult]{Result: TokenResult{Token: token}, Private: []byte(id), RenewAt: time.Now().Add(ttl)}, nil
}

// Renew extends the token's life.
func (Token) Renew(ctx context.Context, op provider.RenewOp) (provider.RenewResult, error) {
	return provider.RenewResult{RenewAt: time.Now().Add(time.Hour)}, store(ctx).log("renewed " + string(op.Private))
}

// Close revokes the token.
func (Token) Close(ctx context.Context, op provider.CloseOp) error {
	return store(ctx).log("revoked " + string(op.Private))
}

// log appends a line to tokens.log.
func (r records) log(line string) error {
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(r.dir, "tokens.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
