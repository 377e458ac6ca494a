package monitor

import (
	"context"
	"fmt"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// callbacks calls functions of the program through the Callbacks service
// its SDK serves (transforms): a Callback names the service's address
// and the function's token. One connection per address, closed with the
// Server.
type callbacks struct {
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
}

// call invokes cb with req, a message marshalled into the callback's
// request bytes, and unmarshals the answer into resp. The error of a
// function that threw is its message, as the SDK reports it.
func (c *callbacks) call(ctx context.Context, cb *pulumirpc.Callback, req, resp proto.Message) error {
	conn, err := c.conn(cb.GetTarget())
	if err != nil {
		return err
	}
	body, err := proto.Marshal(req)
	if err != nil {
		return err
	}
	out, err := pulumirpc.NewCallbacksClient(conn).Invoke(ctx, &pulumirpc.CallbackInvokeRequest{Token: cb.GetToken(), Request: body})
	if err != nil {
		if st, ok := status.FromError(err); ok {
			return fmt.Errorf("%s", st.Message())
		}
		return err
	}
	if err := proto.Unmarshal(out.GetResponse(), resp); err != nil {
		return fmt.Errorf("the program answered with a malformed %T: %w", resp, err)
	}
	return nil
}

func (c *callbacks) conn(target string) (*grpc.ClientConn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if conn := c.conns[target]; conn != nil {
		return conn, nil
	}
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20), grpc.MaxCallSendMsgSize(256<<20)))
	if err != nil {
		return nil, fmt.Errorf("connecting to the program's callback service at %s: %w", target, err)
	}
	if c.conns == nil {
		c.conns = map[string]*grpc.ClientConn{}
	}
	c.conns[target] = conn
	return conn, nil
}

// close closes every connection.
func (c *callbacks) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range c.conns {
		_ = conn.Close()
	}
	c.conns = nil
}
