package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxLine is the longest line a [Reader] reads by default, in
// bytes: 256 MiB. Transcripts hold base64 images and whole tool results
// on one line, so the limit is far above any size a line of text needs;
// it is there so that a corrupt file cannot make a hook allocate without
// bound.
const DefaultMaxLine = 256 << 20

// ErrLineTooLong is the error of an entry whose line is longer than the
// reader's limit (see [Reader.SetMaxLine]). The line is skipped, not
// held: its bytes are read and dropped.
var ErrLineTooLong = errors.New("transcript: line longer than the limit")

// LineError is the error of an entry whose line is not a JSON object.
type LineError struct {
	// Line is the line's number, counted from 1.
	Line int
	// Truncated is true for the last line of the input when it does not
	// end with a newline: the client may be writing it right now, so the
	// line is most likely cut, not corrupt, and may be whole when the
	// file is read again.
	Truncated bool
	// Err is what was wrong: a JSON syntax error, or [ErrLineTooLong].
	Err error
}

// Error says which line could not be read and why.
func (e *LineError) Error() string {
	if e.Truncated {
		return fmt.Sprintf("transcript: line %d: unfinished last line: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("transcript: line %d: %v", e.Line, e.Err)
}

// Unwrap returns Err.
func (e *LineError) Unwrap() error { return e.Err }

// Reader reads a Claude Code transcript, one JSON object a line, entry
// by entry, in the manner of [bufio.Scanner]:
//
//	r := transcript.NewReader(f)
//	for r.Next() {
//		e := r.Entry()
//		if e.Err != nil {
//			continue // a line that is not an entry: see Entry.Err
//		}
//		…
//	}
//	if err := r.Err(); err != nil { … } // the input failed
//
// It holds one line at a time, however long: a line is read whole up to
// the limit ([DefaultMaxLine] unless [Reader.SetMaxLine] says otherwise),
// and a longer one is read past and reported as an entry whose Err wraps
// [ErrLineTooLong]. A line that is not a JSON object is an entry with a
// [*LineError], and reading goes on; so is an unfinished last line, with
// Truncated set. Blank lines are skipped; a trailing carriage return
// (CRLF) and a byte order mark before the first line are dropped.
type Reader struct {
	br    *bufio.Reader
	max   int
	line  int
	entry *Entry
	err   error
	done  bool
}

// NewReader returns a Reader that reads the transcript from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), max: DefaultMaxLine}
}

// SetMaxLine sets the longest line the Reader reads, in bytes; n <= 0
// means no limit. Call it before the first Next.
func (r *Reader) SetMaxLine(n int) { r.max = n }

// Next reads the next entry, which [Reader.Entry] then returns. It returns
// false at the end of the input or when reading it failed; [Reader.Err]
// tells which.
func (r *Reader) Next() bool {
	r.entry = nil
	for !r.done {
		raw, complete, tooLong, err := r.readLine()
		if err != nil {
			r.done = true
			if err != io.EOF {
				r.err = err
				return false
			}
		}
		if tooLong {
			r.entry = &Entry{Line: r.line, Err: &LineError{Line: r.line, Truncated: !complete, Err: ErrLineTooLong}}
			return true
		}
		if r.line == 1 {
			raw = bytes.TrimPrefix(raw, []byte("\uFEFF"))
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		r.entry = parseEntry(r.line, raw, !complete)
		return true
	}
	return false
}

// Entry returns the entry Next read. It is the caller's to keep: the
// Reader does not reuse it or its bytes.
func (r *Reader) Entry() *Entry { return r.entry }

// Err returns the error that stopped reading, nil at the end of the input.
// A line that could not be read as an entry is not such an error: it is
// reported in that entry's Err.
func (r *Reader) Err() error { return r.err }

// Line returns the number of the last line read, counted from 1.
func (r *Reader) Line() int { return r.line }

// readLine reads the next line without its newline (and carriage return).
// complete is false when the input ended before a newline; tooLong is true
// when the line was longer than the limit, whose bytes are then dropped.
// err is io.EOF when the input is exhausted (the line may still hold
// bytes).
func (r *Reader) readLine() (line []byte, complete, tooLong bool, err error) {
	// A long line comes in chunks of the bufio buffer, each copied (the
	// buffer is reused) and joined once at the end: about twice the line
	// at most, where growing one slice would allocate several times it.
	var chunks [][]byte
	size := 0
	for {
		chunk, rerr := r.br.ReadSlice('\n')
		size += len(chunk)
		if r.max > 0 && size > r.max+2 { // +2: room for the line's CR LF
			tooLong, chunks = true, nil
		} else if !tooLong && len(chunk) > 0 {
			chunks = append(chunks, bytes.Clone(chunk))
		}
		switch rerr {
		case bufio.ErrBufferFull:
			continue
		case nil:
			complete = true
		default:
			err = rerr // io.EOF, or the input failed
		}
		break
	}
	if size > 0 {
		r.line++
	}
	if tooLong {
		return nil, complete, true, err
	}
	var buf []byte
	if len(chunks) == 1 {
		buf = chunks[0]
	} else {
		buf = bytes.Join(chunks, nil)
	}
	buf = bytes.TrimSuffix(buf, []byte("\n"))
	buf = bytes.TrimSuffix(buf, []byte("\r"))
	if r.max > 0 && len(buf) > r.max {
		return nil, complete, true, err
	}
	return buf[:len(buf):len(buf)], complete, false, err
}
