package file

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/plinth-iac/plinth/internal/state"
)

// A journal record on disk is an 8-byte header, then the payload:
//
//	uint32 big-endian  payload length (1 to maxRecord)
//	uint32 big-endian  CRC-32C of the length bytes and the payload
//
// The checksum covers the length, so a run of zeros (what a crash can leave
// at the end of a file) is never a valid record.
const (
	headerSize = 8
	maxRecord  = 1 << 30
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func appendFrame(b, payload []byte) []byte {
	at := len(b)
	b = binary.BigEndian.AppendUint32(b, uint32(len(payload)))
	crc := crc32.Update(crc32.Checksum(b[at:at+4], castagnoli), castagnoli, payload)
	b = binary.BigEndian.AppendUint32(b, crc)
	return append(b, payload...)
}

// parseFrame returns the payload of the record at the start of b and the
// record's size, or ok false if no valid record starts there.
func parseFrame(b []byte) (payload []byte, size int, ok bool) {
	if len(b) < headerSize {
		return nil, 0, false
	}
	n := binary.BigEndian.Uint32(b[:4])
	if n == 0 || n > maxRecord || uint64(n) > uint64(len(b)-headerSize) {
		return nil, 0, false
	}
	payload = b[headerSize : headerSize+int(n)]
	crc := crc32.Update(crc32.Checksum(b[:4], castagnoli), castagnoli, payload)
	if crc != binary.BigEndian.Uint32(b[4:8]) {
		return nil, 0, false
	}
	return payload, headerSize + int(n), true
}

// parseJournal splits a journal into records. A damaged record with no
// valid record after it is a torn final write: it is dropped and
// described in Torn.
func parseJournal(path string, data []byte) (state.JournalRead, error) {
	var out state.JournalRead
	for off := 0; off < len(data); {
		payload, size, ok := parseFrame(data[off:])
		if !ok {
			if next := validFrameAfter(data, off+1); next >= 0 {
				return state.JournalRead{}, &state.JournalCorruptError{Where: path, Offset: int64(off), Record: len(out.Records) + 1,
					Intact: out.Records, Damaged: data[off+min(headerSize, next-off) : next], After: framesFrom(data, next)}
			}
			out.Torn = tornTail(data, off, len(out.Records)+1)
			return out, nil
		}
		out.Records = append(out.Records, payload)
		off += size
	}
	return out, nil
}

// tornTail describes the bytes from off to the end, which hold no whole
// record: their payload, as far as the header's length can be believed.
func tornTail(data []byte, off, record int) *state.TornTail {
	rest := data[off:]
	payload := rest[min(headerSize, len(rest)):]
	return &state.TornTail{Record: record, Offset: int64(off), Bytes: int64(len(rest)), Data: payload}
}

// validFrameAfter returns the offset of the first valid record at or
// after from, or -1.
func validFrameAfter(data []byte, from int) int {
	for i := from; i+headerSize <= len(data); i++ {
		if _, _, ok := parseFrame(data[i:]); ok {
			return i
		}
	}
	return -1
}

// framesFrom returns the whole records from off on, skipping damage, for
// salvage to list.
func framesFrom(data []byte, off int) [][]byte {
	var out [][]byte
	for off >= 0 && off < len(data) {
		payload, size, ok := parseFrame(data[off:])
		if !ok {
			off = validFrameAfter(data, off+1)
			continue
		}
		out = append(out, payload)
		off += size
	}
	return out
}

// frames appends the records to buf framed one after another, growing
// it at most once, to the exact size.
func frames(buf []byte, records [][]byte) ([]byte, error) {
	size := 0
	for _, r := range records {
		if len(r) == 0 || len(r) > maxRecord {
			return nil, fmt.Errorf("a record of %d bytes cannot be stored", len(r))
		}
		size += headerSize + len(r)
	}
	if cap(buf)-len(buf) < size {
		buf = append(make([]byte, 0, len(buf)+size), buf...)
	}
	for _, r := range records {
		buf = appendFrame(buf, r)
	}
	return buf, nil
}

// maxKeptFrameBuf bounds the buffer the backend keeps between appends.
const maxKeptFrameBuf = 1 << 20

// takeFrameBuf returns the buffer the last append framed its records
// in, empty, and putFrameBuf keeps buf for the next: a journal append
// per batch of steps allocated its batch's size in garbage each time
// (a fifth of what the journal allocated in a 10,000-resource create).
// Appends to different stacks at once each get a buffer of their own.
func (b *Backend) takeFrameBuf() []byte {
	b.frameMu.Lock()
	defer b.frameMu.Unlock()
	buf := b.frameBuf
	b.frameBuf = nil
	return buf[:0]
}

func (b *Backend) putFrameBuf(buf []byte) {
	if cap(buf) > maxKeptFrameBuf {
		return
	}
	b.frameMu.Lock()
	defer b.frameMu.Unlock()
	b.frameBuf = buf
}

// AppendJournal appends the records with one write and one sync.
func (b *Backend) AppendJournal(_ context.Context, stack string, records [][]byte) error {
	p, err := b.path(stack, journalFile)
	if err != nil {
		return err
	}
	buf, err := frames(b.takeFrameBuf(), records)
	if err != nil {
		return fmt.Errorf("journal %s: %w", p, err)
	}
	defer b.putFrameBuf(buf)
	f, created, err := openJournal(p)
	if err != nil {
		return err
	}
	if err := writeSynced(f, buf); err != nil {
		return fmt.Errorf("appending to %s: %w", p, err)
	}
	if created {
		return syncDir(filepath.Dir(p))
	}
	return nil
}

// openJournal opens the journal for appending, creating it (and reporting
// so, since the directory then needs a sync) if it does not exist.
func openJournal(p string) (f *os.File, created bool, err error) {
	f, err = os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		return f, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("opening %s: %w", p, err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, false, fmt.Errorf("creating %s: %w", filepath.Dir(p), err)
	}
	f, err = os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("creating %s: %w", p, err)
	}
	return f, true, nil
}

// ReadJournal reads every record, dropping a torn final one.
func (b *Backend) ReadJournal(_ context.Context, stack string) (state.JournalRead, error) {
	p, err := b.path(stack, journalFile)
	if err != nil {
		return state.JournalRead{}, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return state.JournalRead{}, nil
	}
	if err != nil {
		return state.JournalRead{}, fmt.Errorf("reading %s: %w", p, err)
	}
	return parseJournal(p, data)
}

// TruncateJournal empties the journal and syncs it.
func (b *Backend) TruncateJournal(_ context.Context, stack string) error {
	p, err := b.path(stack, journalFile)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("emptying %s: %w", p, err)
	}
	err = truncate(f)
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("emptying %s: %w", p, err)
	}
	return nil
}

// truncate empties f and syncs it, unless it is empty already.
func truncate(f *os.File) error {
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	return f.Sync()
}
