package agent

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/plinth-iac/plinth/internal/secrets"
)

// DefaultTTL is how long a key is kept after its last use, as sudo keeps
// a user's credentials.
const DefaultTTL = 15 * time.Minute

// Server holds keys for one user. It is the agent's state; Run serves
// it on the user's socket.
type Server struct {
	// UID is the only user served: a connection from any other is
	// closed unanswered.
	UID int
	// Now is the clock; time.Now if nil.
	Now func() time.Time

	// secret keys the HMAC of each entry's passphrase. It is made at
	// start and never leaves the process, so what the agent holds
	// cannot be used to test guesses anywhere else.
	secret  [32]byte
	mu      sync.Mutex
	entries map[string]*entry
}

// entry is one stack's key.
type entry struct {
	mac  []byte // HMAC-SHA256(secret, passphrase)
	key  []byte // in locked memory (lockedBytes)
	free func()
	used time.Time
	ttl  time.Duration
}

// NewServer returns an empty Server for uid.
func NewServer(uid int) *Server {
	s := &Server{UID: uid, entries: map[string]*entry{}}
	_, _ = rand.Read(s.secret[:]) // crypto/rand.Read never fails; it crashes the program instead
	return s
}

func entryID(salt []byte, kdf secrets.KDFParams) string {
	return fmt.Sprintf("%d:%d:%d:%x", kdf.Time, kdf.Memory, kdf.Threads, salt)
}

func (s *Server) mac(passphrase []byte) []byte {
	m := hmac.New(sha256.New, s.secret[:])
	m.Write(passphrase)
	return m.Sum(nil)
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// handle answers one request.
func (s *Server) handle(req *request) response {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	switch req.Op {
	case opKey:
		return s.key(req)
	case opKeep:
		return s.keep(req)
	case opForget:
		n := len(s.entries)
		for id := range s.entries {
			s.drop(id)
		}
		return response{Forgot: n, PID: os.Getpid()}
	}
	return response{Error: fmt.Sprintf("unknown operation %q", req.Op)}
}

// key returns the key of a matching entry. A passphrase that does not
// match drops the entry: whoever sent it must derive the key (and fail
// the check) as if there were no agent, and a guesser gets one try per
// key handed over, not one per round trip.
func (s *Server) key(req *request) response {
	id := entryID(req.Salt, req.KDF)
	e := s.entries[id]
	if e == nil {
		return response{}
	}
	if !hmac.Equal(e.mac, s.mac(req.Passphrase)) {
		s.drop(id)
		return response{}
	}
	e.used = s.now()
	return response{Key: append([]byte(nil), e.key...)}
}

func (s *Server) keep(req *request) response {
	if len(req.Key) != secrets.KeySize || len(req.Salt) == 0 || len(req.Passphrase) == 0 {
		return response{Error: "keep needs a salt, a passphrase and a key"}
	}
	ttl := req.TTL
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	id := entryID(req.Salt, req.KDF)
	if s.entries[id] != nil {
		s.drop(id)
	}
	key, free := lockedBytes(req.Key)
	s.entries[id] = &entry{mac: s.mac(req.Passphrase), key: key, free: free, used: s.now(), ttl: ttl}
	return response{}
}

func (s *Server) drop(id string) {
	s.entries[id].free()
	delete(s.entries, id)
}

// expire drops the entries unused for their TTL; s.mu is held.
func (s *Server) expire() {
	now := s.now()
	for id, e := range s.entries {
		if now.Sub(e.used) >= e.ttl {
			s.drop(id)
		}
	}
}

// Len expires what is due and returns how many keys are held.
func (s *Server) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	return len(s.entries)
}

// serveConn answers one connection, from this user only.
func (s *Server) serveConn(c *net.UnixConn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if uid, err := peerUID(c); err != nil || uid != s.UID {
		return
	}
	var req request
	if err := readMessage(c, &req); err != nil {
		return
	}
	resp := s.handle(&req)
	req.wipe()
	_ = writeMessage(c, resp)
	clear(resp.Key)
}

// Serve answers connections on l until no key is left (all expired or
// forgotten) or alive returns false, checking every tick; then it
// closes l.
func (s *Server) Serve(l *net.UnixListener, tick time.Duration, alive func() bool) {
	served := make(chan struct{}, 1)
	go func() {
		for {
			c, err := l.AcceptUnix()
			if err != nil {
				return
			}
			go func() {
				s.serveConn(c)
				select {
				case served <- struct{}{}:
				default:
				}
			}()
		}
	}()
	t := time.NewTicker(tick)
	defer t.Stop()
	for s.Len() > 0 && alive() {
		select {
		case <-served:
		case <-t.C:
		}
	}
	l.Close()
}
