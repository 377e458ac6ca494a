// Command muplugin is a provider that speaks the Mu CRUD protocol, for
// internal/provider/mu's tests. It keeps each resource as a JSON file in
// mu-store/ under its working directory (plinth runs plugins in the project
// directory), so resources outlive the process, and appends each call to
// mu-store/calls.log so a test can see which calls plinth made.
//
// A resource whose properties hold crash: "create" makes the process exit
// in the middle of its Create, after the resource was stored.
//
// PLINTH_MU_ENV_LOG names a file it writes its collector settings to when
// it starts.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/plinth-iac/plinth/internal/provider/mu/mupb"
)

const dir = "mu-store"

func main() {
	logEnv()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	srv := grpc.NewServer()
	mupb.RegisterResourceProviderServer(srv, &store{})
	fmt.Println(lis.Addr().(*net.TCPAddr).Port)
	if err := srv.Serve(lis); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// record is one stored resource.
type record struct {
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties"`
}

type store struct {
	mupb.UnimplementedResourceProviderServer
	mu sync.Mutex
}

func (s *store) Create(_ context.Context, req *mupb.CreateRequest) (*mupb.CreateResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := nextID()
	if err != nil {
		return nil, err
	}
	props := req.GetProperties().AsMap()
	if err := save(id, record{Type: req.GetType(), Properties: props}); err != nil {
		return nil, err
	}
	logCall("Create", req.GetType(), id, props)
	if props["crash"] == "create" {
		fmt.Fprintln(os.Stderr, "muplugin: crashing in the middle of Create, as asked")
		os.Exit(3)
	}
	return &mupb.CreateResponse{Id: id}, nil
}

func (s *store) Read(_ context.Context, req *mupb.ReadRequest) (*mupb.ReadResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := load(req.GetId())
	if err != nil {
		return nil, err
	}
	logCall("Read", req.GetType(), req.GetId(), nil)
	props, err := structpb.NewStruct(r.Properties)
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &mupb.ReadResponse{Properties: props}, nil
}

func (s *store) Update(_ context.Context, req *mupb.UpdateRequest) (*emptypb.Empty, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := load(req.GetId())
	if err != nil {
		return nil, err
	}
	delta := req.GetProperties().AsMap()
	for k, v := range delta {
		if v == nil {
			delete(r.Properties, k)
		} else {
			r.Properties[k] = v
		}
	}
	if err := save(req.GetId(), r); err != nil {
		return nil, err
	}
	logCall("Update", req.GetType(), req.GetId(), delta)
	return &emptypb.Empty{}, nil
}

func (s *store) Delete(_ context.Context, req *mupb.DeleteRequest) (*emptypb.Empty, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := load(req.GetId()); err != nil {
		return nil, err
	}
	if err := os.Remove(filepath.Join(dir, req.GetId()+".json")); err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	logCall("Delete", req.GetType(), req.GetId(), nil)
	return &emptypb.Empty{}, nil
}

func nextID() (string, error) {
	path := filepath.Join(dir, "next")
	data, _ := os.ReadFile(path)
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	n++
	if err := os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644); err != nil {
		return "", status.Error(codes.Internal, err.Error())
	}
	return fmt.Sprintf("r%d", n), nil
}

func load(id string) (record, error) {
	data, err := os.ReadFile(filepath.Join(dir, id+".json"))
	if os.IsNotExist(err) {
		return record{}, status.Errorf(codes.NotFound, "no resource %s", id)
	}
	if err != nil {
		return record{}, status.Error(codes.Internal, err.Error())
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		return record{}, status.Error(codes.Internal, err.Error())
	}
	if r.Properties == nil {
		r.Properties = map[string]any{}
	}
	return r, nil
}

func save(id string, r record) error {
	data, err := json.Marshal(r)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, id+".json"), data, 0o644)
	}
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	return nil
}

// logCall appends "Method type id key=value ..." (keys sorted) to calls.log.
func logCall(method, typ, id string, props map[string]any) {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	line := method + " " + typ + " " + id
	for _, k := range keys {
		line += fmt.Sprintf(" %s=%v", k, props[k])
	}
	f, err := os.OpenFile(filepath.Join(dir, "calls.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

// logEnv writes the plugin's collector settings (GOGC and GOMEMLIMIT,
// each "=value" or " unset") to $PLINTH_MU_ENV_LOG, if set, so tests see
// the environment plinth started it with.
func logEnv() {
	path := os.Getenv("PLINTH_MU_ENV_LOG")
	if path == "" {
		return
	}
	var b strings.Builder
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(k); ok {
			fmt.Fprintf(&b, "%s=%s\n", k, v)
		} else {
			fmt.Fprintf(&b, "%s unset\n", k)
		}
	}
	_ = os.WriteFile(path, []byte(b.String()), 0o644)
}
