package monitor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"runtime"
	"strings"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/plinth-iac/plinth/internal/engine"
	"github.com/plinth-iac/plinth/internal/provider/grpcplugin"
	"github.com/plinth-iac/plinth/sdk/resource"
)

// StackType is the type of the root component every Pulumi program
// registers first; plinth keeps no resource for it (see Server).
const StackType = "pulumi:pulumi:Stack"

// Config describes the operation a Server serves.
type Config struct {
	Stack, Project string
	// Log receives what the program logs through the engine service, and
	// the monitor's own warnings; nil drops them.
	Log func(Log)
	// Stacks reads the stacks a program references (StackReference);
	// nil refuses stack references.
	Stacks StackReader
	// Dir is the program's working directory, which the relative paths of
	// the assets it registers are read against to hash them, as Pulumi's
	// engine does; "" leaves assets as the program sent them.
	Dir string
}

// Log is one message from the program (or, with Severity warning and no
// URN, from the monitor about the program).
type Log struct {
	Severity engine.Severity
	URN      resource.URN
	Message  string
}

// Server serves the resource monitor and engine services for one
// operation. The program's root stack component is not registered with the
// engine: its URN is answered at once, resources parented to it are
// registered without a parent (so their URNs are those the YAML front end
// gives), and its outputs become the stack's outputs.
type Server struct {
	cfg  Config
	mon  engine.Monitor
	lis  net.Listener
	grpc *grpc.Server

	mu        sync.Mutex
	root      resource.URN          // the stack component's URN, once registered
	rootSet   string                // the root the program set through SetRootResource
	providers map[string]string     // provider URN → the engine's reference
	external  map[resource.URN]bool // stack references: URNs the engine does not know
	errs      []error               // requests the monitor refused, in order
	failed    chan struct{}         // closed when a registration first fails
	failOnce  sync.Once
	logged    []string // error messages the program logged
	xf        transforms
	hooks     map[string]*pulumirpc.RegisterResourceHookRequest // by name
	// errorHooks are the error hooks the program registered, by name.
	errorHooks map[string]*pulumirpc.RegisterErrorHookRequest

	cb callbacks // the program's Callbacks service, for transforms
}

// Start listens on a loopback port and serves mon until Close.
func Start(mon engine.Monitor, cfg Config) (*Server, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("starting the resource monitor: %w", err)
	}
	// The fixed window spares each registration the PING and ack of
	// gRPC's bandwidth estimation (see grpcplugin.Window).
	s := &Server{cfg: cfg, mon: mon, lis: lis, providers: map[string]string{}, external: map[resource.URN]bool{}, failed: make(chan struct{}),
		grpc: grpc.NewServer(grpc.MaxRecvMsgSize(256<<20), grpc.MaxSendMsgSize(256<<20), grpc.NumStreamWorkers(uint32(runtime.NumCPU())),
			grpc.InitialWindowSize(grpcplugin.Window), grpc.InitialConnWindowSize(grpcplugin.Window),
			grpc.ForceServerCodecV2(newCodec()))}
	pulumirpc.RegisterResourceMonitorServer(s.grpc, &resourceMonitor{s: s})
	pulumirpc.RegisterEngineServer(s.grpc, &engineService{s: s})
	go func() { _ = s.grpc.Serve(lis) }()
	return s, nil
}

// Addr is the address the program connects to, host:port.
func (s *Server) Addr() string { return s.lis.Addr().String() }

// Close stops serving; requests in flight are cancelled.
func (s *Server) Close() {
	s.grpc.Stop()
	s.cb.close()
}

// Err returns the requests the monitor refused (malformed values,
// unsupported options), joined; nil if none.
func (s *Server) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.errs...)
}

// LoggedErrors returns the error messages the program logged, in order:
// for an unhandled exception, the message and the program's stack trace.
func (s *Server) LoggedErrors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.logged...)
}

// Failed is closed when a registration first fails, refused by the
// monitor or by the engine. The operation has then failed, and the
// program should be ended: as with Pulumi's engine, a program is not
// relied on to exit by itself after a failed registration (the Node.js
// SDK may not).
func (s *Server) Failed() <-chan struct{} { return s.failed }

func (s *Server) markFailed() { s.failOnce.Do(func() { close(s.failed) }) }

// hasFailed reports whether a registration has failed.
func (s *Server) hasFailed() bool {
	select {
	case <-s.failed:
		return true
	default:
		return false
	}
}

// refuse records a request the monitor refused and returns the error for
// the program.
func (s *Server) refuse(err error) error {
	s.mu.Lock()
	s.errs = append(s.errs, err)
	s.mu.Unlock()
	s.markFailed()
	return err
}

// ansi matches terminal colour sequences: the Node.js SDK colours the
// stack traces it logs, and plinth's views do their own colouring.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]")

func (s *Server) log(l Log) {
	l.Message = ansi.ReplaceAllString(l.Message, "")
	if l.Severity == engine.SeverityError {
		s.mu.Lock()
		s.logged = append(s.logged, strings.TrimRight(l.Message, "\n"))
		s.mu.Unlock()
		return
	}
	if s.cfg.Log != nil {
		s.cfg.Log(l)
	}
}

// rootURN returns the stack component's URN, "" before it registers.
func (s *Server) rootURN() resource.URN {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.root
}

// parent maps a parent URN from the program to the engine's: the stack
// component is no parent, nor is a stack reference.
func (s *Server) parent(urn string) resource.URN {
	if urn == "" || s.unknownToEngine(resource.URN(urn)) {
		return ""
	}
	return resource.URN(urn)
}

// unknownToEngine reports whether urn is the stack component's or a
// stack reference's, which the engine keeps no resource for.
func (s *Server) unknownToEngine(urn resource.URN) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return urn == s.root || s.external[urn]
}

func (s *Server) addExternal(urn resource.URN) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.external[urn] = true
}

// urns maps dependency URNs, dropping the stack component and stack
// references.
func (s *Server) urns(in []string) []resource.URN {
	out := make([]resource.URN, 0, len(in))
	for _, u := range in {
		if u != "" && !s.unknownToEngine(resource.URN(u)) {
			out = append(out, resource.URN(u))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// providerRef maps a provider reference "<URN>::<ID>" from the program
// to the engine's reference for that provider resource.
func (s *Server) providerRef(ref string) string {
	if ref == "" {
		return ""
	}
	i := strings.LastIndex(ref, "::")
	if i < 0 {
		return ref
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.providers[ref[:i]]; ok {
		return r
	}
	return ref
}

func (s *Server) addProvider(urn resource.URN, ref string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.providers[string(urn)] = ref
}

// ctxErr turns a cancelled request into a plain error.
// registrationFailed is the status a failed registration answers with:
// InvalidArgument for a type token plinth cannot record, as Pulumi's
// engine answers a malformed one, else Unknown.
func registrationFailed(ctx context.Context, err error) error {
	code := codes.Unknown
	var ite *engine.InvalidTypeError
	if errors.As(err, &ite) {
		code = codes.InvalidArgument
	}
	return status.Error(code, ctxErr(ctx, err).Error())
}

func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("the operation was cancelled: %w", err)
	}
	return err
}
