// Package example is a small provider written with plinth's SDK
// (sdk/provider) that uses each feature the SDK offers authors: validate
// tags with exact paths at any depth, defaults inside nested objects,
// stable outputs, a Differ that replaces only on some changes, a timeouts
// block, a deprecated property, a write-only input, sets of strings and
// of objects, private state,
// import, functions (one variadic) and an ephemeral resource. Its servers keep a JSON record per server in a directory, so
// import, refresh and drift are real. README.md walks through it; the
// acceptance tests in e2e/tfserve/acceptance drive it with HashiCorp's
// terraform-plugin-testing on protocols 5 and 6.
//
// cmd/terraform-provider-example serves it to terraform (tfserve) and
// cmd/pulumi-resource-example to Pulumi (pulumiserve); plinth runs it in
// process with New.
package example

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/plinth-iac/plinth/sdk/provider"
)

// Config is the provider's configuration.
type Config struct {
	Dir string `plinth:"dir" validate:"len=1.." doc:"Directory holding one JSON record per server."`
}

// Listener is where a server listens. Its protocol has a default, which
// holds inside the nested object too.
type Listener struct {
	Port     int    `plinth:"port" validate:"min=1 max=65535" doc:"TCP or UDP port."`
	Protocol string `plinth:"protocol,optional" default:"tcp" validate:"oneOf=tcp|udp" doc:"tcp or udp."`
}

// ServerArgs are a server's inputs.
type ServerArgs struct {
	Name     string            `plinth:"name,replaceOnChanges" validate:"len=1..32 match=[a-z][a-z0-9-]*" doc:"Server name; changing it replaces the server."`
	Size     string            `plinth:"size,optional" default:"small" validate:"oneOf=small|medium|large" doc:"small, medium or large; growing is an update, shrinking replaces."`
	Listener *Listener         `plinth:"listener,optional" doc:"Where the server listens."`
	Tags     map[string]string `plinth:"tags,optional" validate:"len=..5" doc:"Up to five tags."`
	Zones    []string          `plinth:"zones,optional,set" validate:"len=..3" doc:"Up to three zones, in no order."`
	// Allow is a set of objects: the same ports in another order are no
	// change, and each element's protocol defaults to tcp.
	Allow []Listener `plinth:"allow,optional,set" validate:"len=..4" doc:"Up to four ports open to the world, in no order."`
	Owner string     `plinth:"owner,optional" deprecated:"Use tags[\"owner\"] instead." doc:"Who owns the server."`
	// AdminPassword is sent to Create and Update and never recorded: the
	// record keeps a hash, the state nothing.
	AdminPassword string             `plinth:"adminPassword,optional,writeOnly" validate:"len=8.." doc:"Administrator password (write-only)."`
	Timeouts      *provider.Timeouts `plinth:"timeouts,optional" doc:"How long operations may take."`
}

// ServerState is what the provider reports about a server.
type ServerState struct {
	ServerArgs
	// Serial is set once at create: stable, so a plan for an update shows
	// it instead of "(known after apply)".
	Serial string `plinth:"serial,stable" doc:"Serial number, fixed at create."`
	// Address changes with the listener, so it is unknown in such a plan.
	Address string `plinth:"address" doc:"name:port, or the name when not listening."`
}

// Server is the example's resource type.
type Server struct{}

var (
	_ provider.Resource[ServerArgs, ServerState] = Server{}
	_ provider.Reader[ServerArgs, ServerState]   = Server{}
	_ provider.Updater[ServerArgs, ServerState]  = Server{}
	_ provider.Deleter[ServerArgs, ServerState]  = Server{}
	_ provider.Differ[ServerArgs, ServerState]   = Server{}
)

// New returns the example provider.
func New() provider.Provider {
	p, err := provider.New(provider.Info{Name: "example", Version: "0.1.0",
		Description: "An example provider written with plinth's SDK."},
		provider.WithConfig[Config](),
		provider.WithResource[ServerArgs, ServerState]("example:index:Server", Server{}, "A server kept as a JSON record."),
		provider.WithFunction("example:index:slug", Slug, "Lower-cases text and joins its words with a separator."),
		provider.WithFunction("example:index:join", Join, "Joins any number of parts with a separator."),
		provider.WithEphemeral[TokenArgs, TokenResult]("example:index:Token", Token{}, "A token issued for one run and revoked at its end."),
	)
	if err != nil {
		panic(err) // the declarations above are fixed; a test covers New
	}
	return p
}

// Create writes the server's record.
func (Server) Create(ctx context.Context, op provider.CreateOp[ServerArgs]) (provider.CreateResult[ServerState], error) {
	ctx, cancel := withTimeout(ctx, op.Timeout)
	defer cancel()
	st := ServerState{ServerArgs: op.Inputs, Serial: newSerial()}
	st.Address = address(op.Inputs)
	rec := record{State: st, PasswordHash: hash(op.Inputs.AdminPassword), Revision: 1}
	rec.State.AdminPassword, rec.State.Timeouts = "", nil // never stored
	if err := store(ctx).write(op.Inputs.Name, rec); err != nil {
		return provider.CreateResult[ServerState]{}, err
	}
	return provider.CreateResult[ServerState]{ID: op.Inputs.Name, Outputs: st, Private: revision(rec.Revision)}, nil
}

// Read reads the record back; a missing record means the server is gone.
// On import only the ID is known, and the inputs come from the record.
func (Server) Read(ctx context.Context, op provider.ReadOp[ServerArgs, ServerState]) (provider.ReadResult[ServerArgs, ServerState], error) {
	rec, found, err := store(ctx).read(op.ID)
	if err != nil || !found {
		return provider.ReadResult[ServerArgs, ServerState]{}, err
	}
	ins := rec.State.ServerArgs
	if !op.Import {
		ins.Timeouts = op.Inputs.Timeouts // not part of the server: keep what the program said
	}
	rec.State.Timeouts = ins.Timeouts
	return provider.ReadResult[ServerArgs, ServerState]{ID: op.ID, Inputs: ins, Outputs: rec.State,
		Private: revision(rec.Revision)}, nil
}

// Update rewrites the record, keeping the serial.
func (Server) Update(ctx context.Context, op provider.UpdateOp[ServerArgs, ServerState]) (provider.UpdateResult[ServerState], error) {
	ctx, cancel := withTimeout(ctx, op.Timeout)
	defer cancel()
	s := store(ctx)
	rec, _, err := s.read(op.ID)
	if err != nil {
		return provider.UpdateResult[ServerState]{}, err
	}
	// Private state: the revision this resource last wrote or read. A
	// record changed by someone else since then is not overwritten.
	if got, want := string(revision(rec.Revision)), string(op.Private); got != want {
		return provider.UpdateResult[ServerState]{}, fmt.Errorf("the record of %s is at %q, but this resource last saw %q: "+
			"it changed outside the provider; refresh, then apply again", op.ID, got, want)
	}
	rec.Revision++
	st := ServerState{ServerArgs: op.News, Serial: op.OldOutputs.Serial, Address: address(op.News)}
	rec.State = st
	rec.State.AdminPassword, rec.State.Timeouts = "", nil // never stored
	if op.News.AdminPassword != "" {
		rec.PasswordHash = hash(op.News.AdminPassword)
	}
	if err := s.write(op.ID, rec); err != nil {
		return provider.UpdateResult[ServerState]{}, err
	}
	return provider.UpdateResult[ServerState]{Outputs: st, Private: revision(rec.Revision)}, nil
}

// Delete removes the record.
func (Server) Delete(ctx context.Context, op provider.DeleteOp[ServerArgs, ServerState]) error {
	ctx, cancel := withTimeout(ctx, op.Timeout)
	defer cancel()
	return store(ctx).remove(op.ID)
}

// Diff replaces the server when it shrinks (requires-replace-if): the
// SDK's default diff already replaces on a name change (replaceOnChanges)
// and updates everything else in place.
func (Server) Diff(_ context.Context, op provider.DiffOp[ServerArgs, ServerState]) (provider.DiffResult, error) {
	dd := op.Default
	if d, ok := dd["size"]; ok && sizeRank(op.News.Size) < sizeRank(op.OldOutputs.Size) {
		d.Replace = true
		dd["size"] = d
	}
	return provider.DiffResult{DetailedDiff: dd}, nil
}

// revision is the private data the example keeps: the revision of the
// record it last wrote or read.
func revision(n int) []byte { return []byte(fmt.Sprintf("revision %d", n)) }

func sizeRank(s string) int {
	return map[string]int{"small": 1, "medium": 2, "large": 3}[s]
}

func address(a ServerArgs) string {
	if a.Listener == nil {
		return a.Name
	}
	return fmt.Sprintf("%s:%d", a.Name, a.Listener.Port)
}

func newSerial() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "srv-" + hex.EncodeToString(b)
}

func hash(password string) string {
	if password == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(password))
	return hex.EncodeToString(sum[:])
}

// SlugArgs are slug's arguments.
type SlugArgs struct {
	Text      string `plinth:"text" validate:"len=1.." doc:"Text to turn into a slug."`
	Separator string `plinth:"separator,optional" default:"-" validate:"len=1" doc:"One character between words."`
}

// SlugResult is slug's result.
type SlugResult struct {
	Slug string `plinth:"slug" doc:"The slug."`
}

// Slug lower-cases the text and joins its words with the separator.
func Slug(_ context.Context, a SlugArgs) (SlugResult, error) {
	return SlugResult{Slug: strings.Join(strings.Fields(strings.ToLower(a.Text)), a.Separator)}, nil
}

// JoinArgs are join's arguments: in terraform, the separator and then
// any number of parts (a variadic argument).
type JoinArgs struct {
	Separator string   `plinth:"separator" doc:"Put between parts."`
	Parts     []string `plinth:"parts,optional,variadic" doc:"The parts to join."`
}

// JoinResult is join's result.
type JoinResult struct {
	Joined string `plinth:"joined" doc:"The joined parts."`
}

// Join joins the parts with the separator.
func Join(_ context.Context, a JoinArgs) (JoinResult, error) {
	return JoinResult{Joined: strings.Join(a.Parts, a.Separator)}, nil
}
