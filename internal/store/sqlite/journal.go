package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/wolfden/wolfden/internal/store"
)

// The journal takes the appends of games in play. A commit of SQLite costs
// a transaction's begin, its locks and the WAL's frames, about 100 µs, and
// a game writes a record at a time: an AIWolf game of five agents made 20
// commits, a fifth of its server's CPU (docs/benchmarks.md). A batch of
// appends to rooms whose last record the writer knows is written instead to
// the journal, a file beside the database, in one write(2), and is as
// durable when that returns as a commit under synchronous=NORMAL: the
// system has it, and a killed process loses nothing. The journal's records
// move into the database, in bulk, after flushEvery records or flushAfter
// after the first one; a room's alone move with the next transaction the
// writer commits for a write that needs them there (moveFirst: a game's
// end, an append that has to go through the writer); Close moves the rest.
// Until then Records reads them from memory.
//
// The journal is two files, so that the appends go on while a move
// commits: one takes the appends; at a move the other, empty, takes them
// over, and the first starts over once its records are committed (it is
// then the spare). Each file holds a header, journalMagic and the file's
// epoch, then the entries, each its payload's length and CRC-32 and the
// payload. A move stores the epoch it moved in the database, in its
// transaction: at Open, a file whose epoch the database already holds was
// moved (the process died before the file started over) and is dropped;
// those of the next two epochs are moved, in epoch order. An entry cut
// short by the process's death ends its file: its write had not returned,
// so its callers had no answer. A move that fails leaves both files
// holding records: the next moves both, and the appends wait for it.

const (
	journalMagic = "wfdnjrn1"
	headerSize   = len(journalMagic) + 8
	flushEvery   = 1024 // a move holds up the appends: 1,024 records take ~7 ms at 10,000 players
	flushBytes   = 8 << 20
	flushAfter   = time.Second
	moveRows     = 32
)

type journal struct {
	files  [2]*journalFile
	active int  // the file taking the appends
	spare  bool // the other is empty, of the next epoch, ready to take them over at a move
	// hold: a move of both files is under way (one failed before it), so
	// the appends go to the writer, which makes them after it.
	hold bool
	buf  []byte
	// broken is a failed write that could not be taken back (the file may
	// end in a cut entry); the writer commits everything from then on.
	broken error
}

type journalFile struct {
	f     *os.File
	name  string
	epoch int64
	size  int64 // the file's length: the header and whole entries
}

// pending are the journal's records not yet in the database, for the
// readers, and the rooms opened in it (OpenGame): each of those has its
// first records in rooms, and moves with them. gen is odd while a
// transaction that moves them is under way.
type pending struct {
	mu     sync.Mutex
	gen    uint64
	rooms  map[string][]journaled
	opened map[string]store.Room
	count  int
}

// journaled is one of the journal's entries: a record, or a room opened
// (room set, rec.N 0: records count from 1).
type journaled struct {
	rec    store.Record // its Events unset: events holds them, encoded
	events []byte
	room   *store.Room
}

// openJournal opens the journal beside the database at path, moving what a
// process that died left in it into the database first.
func openJournal(ctx context.Context, db *sql.DB, path string) (*journal, error) {
	j := &journal{}
	for i, name := range []string{path + ".records", path + ".records2"} {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			j.close()
			return nil, fmt.Errorf("the journal %s: %w", name, err)
		}
		j.files[i] = &journalFile{f: f, name: name}
	}
	if err := j.recover(ctx, db); err != nil {
		j.close()
		return nil, err
	}
	return j, nil
}

// left is a journal file's entries not yet in the database.
type left struct {
	file  *journalFile
	epoch int64
	rooms []string
	recs  []journaled
}

func (j *journal) recover(ctx context.Context, db *sql.DB) error {
	var moved int64
	if err := db.QueryRowContext(ctx, `SELECT epoch FROM journal`).Scan(&moved); err != nil {
		return err
	}
	var lefts []left
	for _, jf := range j.files {
		l, err := jf.read(moved)
		if err != nil {
			return fmt.Errorf("the journal %s: %w", jf.name, err)
		}
		if l.file != nil {
			lefts = append(lefts, l)
		}
	}
	slices.SortFunc(lefts, func(a, b left) int { return cmp.Compare(a.epoch, b.epoch) })
	if len(lefts) == 2 && lefts[0].epoch == lefts[1].epoch {
		return fmt.Errorf("the journals %s and %s have the same epoch, %d: one belongs to another database", lefts[0].file.name, lefts[1].file.name, lefts[0].epoch)
	}
	if len(lefts) > 0 {
		if err := moveLeft(ctx, db, lefts); err != nil {
			return fmt.Errorf("the journal %s: %w", lefts[0].file.name, err)
		}
		moved = lefts[len(lefts)-1].epoch
	}
	j.active, j.spare = 0, true
	for i, jf := range j.files {
		if err := jf.restart(moved + 1 + int64(i)); err != nil {
			return fmt.Errorf("the journal %s: %w", jf.name, err)
		}
	}
	return nil
}

// read reads the file's entries, if its epoch is one of the two after
// moved (none: l.file is nil).
func (jf *journalFile) read(moved int64) (l left, err error) {
	data, err := io.ReadAll(jf.f)
	if err != nil || len(data) < headerSize { // new, or cut short as it started over
		return l, err
	}
	if string(data[:len(journalMagic)]) != journalMagic {
		return l, errors.New("it is not a wolfden journal (move it away if it is not needed)")
	}
	epoch := int64(binary.LittleEndian.Uint64(data[len(journalMagic):headerSize]))
	switch {
	case epoch <= moved: // moved already
		return l, nil
	case epoch > moved+2:
		return l, fmt.Errorf("its epoch is %d, and the database holds epoch %d: it belongs to another database", epoch, moved)
	}
	l.file, l.epoch = jf, epoch
	for rest := data[headerSize:]; ; {
		room, r, next, ok := decodeEntry(rest)
		if !ok {
			break // the end, or an entry cut short: its write never returned
		}
		l.rooms, l.recs, rest = append(l.rooms, room), append(l.recs, r), next
	}
	return l, nil
}

// moveLeft moves what the files left, in epoch order, into the database,
// with the last one's epoch. A room's records the database holds already
// were moved by the room's move (moveFirst), and are skipped.
func moveLeft(ctx context.Context, db *sql.DB, lefts []left) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	last := map[string]int64{}
	for _, l := range lefts {
		for i, r := range l.recs {
			room := l.rooms[i]
			if r.room != nil {
				// Its first records follow it in the same write: without
				// them the write was cut short and never answered. A
				// room's move may have stored it, and changed it since.
				if i+1 < len(l.recs) && l.recs[i+1].room == nil && l.rooms[i+1] == room {
					if _, err := tx.ExecContext(ctx, insertRoom, roomArgs(*r.room)...); err != nil {
						return err
					}
				}
				continue
			}
			n, ok := last[room]
			if !ok {
				if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(n), 0) FROM records WHERE room_id = ?`, room).Scan(&n); err != nil {
					return err
				}
				last[room] = n
			}
			if r.rec.N <= n {
				continue
			}
			if r.rec.N != n+1 {
				return fmt.Errorf("its record %d of room %q does not follow the stored %d", r.rec.N, room, n)
			}
			if _, err := tx.ExecContext(ctx, insertRecord,
				room, r.rec.N, nanos(r.rec.At), r.rec.Kind, r.rec.Body, r.events, r.rec.Clock); err != nil {
				return err
			}
			last[room] = r.rec.N
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE journal SET epoch = ?`, lefts[len(lefts)-1].epoch); err != nil {
		return err
	}
	return tx.Commit()
}

// restart empties the file and writes its header, of epoch.
func (jf *journalFile) restart(epoch int64) error {
	if err := jf.f.Truncate(0); err != nil {
		return err
	}
	h := append([]byte(journalMagic), make([]byte, 8)...)
	binary.LittleEndian.PutUint64(h[len(journalMagic):], uint64(epoch))
	if _, err := jf.f.WriteAt(h, 0); err != nil {
		return err
	}
	jf.epoch, jf.size = epoch, int64(headerSize)
	return nil
}

// write appends the entries encoded in j.buf to the active file; on
// failure the file is cut back to its last whole entry.
func (j *journal) write() error {
	jf := j.files[j.active]
	_, err := jf.f.WriteAt(j.buf, jf.size)
	if err == nil {
		jf.size += int64(len(j.buf))
		return nil
	}
	if terr := jf.f.Truncate(jf.size); terr != nil {
		j.broken = errors.Join(err, terr)
	}
	return err
}

// swap hands the appends to the spare file for a move of the active one's
// records, and returns the epoch the move commits. Without a spare (a
// move failed, both files hold records) the move takes both, and the
// appends wait for it (hold).
func (j *journal) swap() (epoch int64) {
	epoch = j.files[j.active].epoch
	if j.spare {
		j.active, j.spare = 1-j.active, false
	} else {
		j.hold = true
	}
	return epoch
}

func (j *journal) close() {
	if j == nil {
		return
	}
	for _, jf := range j.files {
		if jf != nil {
			jf.f.Close()
		}
	}
}

// appendEntry encodes one record of room into b.
func appendEntry(b []byte, room string, r store.Record, events []byte) []byte {
	start := len(b)
	b = append(b, make([]byte, 8)...) // the length and CRC: sealEntry
	b = appendBytes(b, []byte(room))
	b = binary.AppendVarint(b, r.N)
	at, _ := nanos(r.At).(int64)
	b = binary.AppendVarint(b, at) // 0: the zero time
	b = appendBytes(b, []byte(r.Kind))
	b = appendBytes(b, r.Body)
	b = appendBytes(b, events)
	b = appendBytes(b, r.Clock)
	return sealEntry(b, start)
}

// sealEntry writes the length and CRC-32 of the payload of the entry that
// starts at b[start] into its first 8 bytes.
func sealEntry(b []byte, start int) []byte {
	payload := b[start+8:]
	binary.LittleEndian.PutUint32(b[start:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(b[start+4:], crc32.ChecksumIEEE(payload))
	return b
}

// appendRoomEntry encodes the opening of room r into b: an entry of
// record number 0, then the room's fields.
func appendRoomEntry(b []byte, r store.Room) []byte {
	start := len(b)
	b = append(b, make([]byte, 8)...)
	b = appendBytes(b, []byte(r.ID))
	b = binary.AppendVarint(b, 0)
	for _, t := range []time.Time{r.Created, r.Updated} {
		at, _ := nanos(t).(int64)
		b = binary.AppendVarint(b, at)
	}
	b = appendBytes(b, []byte(r.Status))
	b = appendBytes(b, r.Config)
	b = appendBytes(b, r.Seats)
	b = appendBytes(b, []byte(r.Code))
	return sealEntry(b, start)
}

// appendBytes appends p's length plus one, 0 for nil (stored as NULL), then p.
func appendBytes(b, p []byte) []byte {
	if p == nil {
		return append(b, 0)
	}
	return append(binary.AppendUvarint(b, uint64(len(p))+1), p...)
}

// decodeEntry reads the entry at the start of data; ok is false at the end
// of the entries or at one cut short or damaged.
func decodeEntry(data []byte) (room string, r journaled, rest []byte, ok bool) {
	if len(data) < 8 {
		return "", r, nil, false
	}
	n := int(binary.LittleEndian.Uint32(data))
	if n > len(data)-8 {
		return "", r, nil, false
	}
	payload := data[8 : 8+n]
	if crc32.ChecksumIEEE(payload) != binary.LittleEndian.Uint32(data[4:]) {
		return "", r, nil, false
	}
	p := payload
	field := func() []byte {
		l, k := binary.Uvarint(p)
		if k <= 0 || l > uint64(len(p)-k)+1 {
			ok = false
			return nil
		}
		p = p[k:]
		if l == 0 {
			return nil
		}
		f := slices.Clone(p[:l-1])
		p = p[l-1:]
		return f
	}
	varint := func() int64 {
		v, k := binary.Varint(p)
		if k <= 0 {
			ok = false
			return 0
		}
		p = p[k:]
		return v
	}
	ok = true
	room = string(field())
	r.rec.N = varint()
	if r.rec.N == 0 { // a room opened (appendRoomEntry)
		rm := store.Room{ID: room}
		for _, t := range []*time.Time{&rm.Created, &rm.Updated} {
			if at := varint(); at != 0 {
				*t = time.Unix(0, at).UTC()
			}
		}
		rm.Status = string(field())
		rm.Config = field()
		rm.Seats = field()
		rm.Code = string(field())
		r.room = &rm
		return room, r, data[8+n:], ok && len(p) == 0
	}
	if at := varint(); at != 0 {
		r.rec.At = time.Unix(0, at).UTC()
	}
	r.rec.Kind = string(field())
	r.rec.Body = field()
	r.events = field()
	r.rec.Clock = field()
	return room, r, data[8+n:], ok && len(p) == 0
}

// journalable: every op of the batch is an append to a room whose last
// record the writer knows, or the opening of a room the database was
// found not to hold (openNow), so the journal can take them (under w.mu).
func (w *writer) journalable(batch []*op) bool {
	if w.j == nil || w.j.broken != nil || w.j.hold {
		return false
	}
	for _, o := range batch {
		_, known := w.last[o.roomID]
		switch {
		case o.kind == opAppend && known:
		case o.kind == opOpen && o.fresh && !known:
		default:
			return false
		}
	}
	return true
}

// journal writes batch to the journal in one write and answers its callers
// (under w.mu); due: the journal's records should move into the database
// now.
func (w *writer) journal(batch []*op) (due bool) {
	j := w.j
	j.buf = j.buf[:0]
	answers := make([]error, len(batch))
	last := map[string]int64{}
	for i, o := range batch {
		l, ok := last[o.roomID]
		if !ok {
			l = w.last[o.roomID]
		}
		if answers[i] = follows(o.roomID, o.recs[0].N, l); answers[i] != nil {
			continue
		}
		if o.kind == opOpen {
			j.buf = appendRoomEntry(j.buf, o.room)
		}
		for k, r := range o.recs {
			j.buf = appendEntry(j.buf, o.roomID, r, o.events[k])
		}
		last[o.roomID] = o.recs[len(o.recs)-1].N
	}
	if len(j.buf) == 0 { // every one refused
		for i, o := range batch {
			o.done <- answers[i]
		}
		return false
	}
	if err := j.write(); err != nil {
		for i, o := range batch {
			if answers[i] == nil {
				answers[i] = fmt.Errorf("sqlite: append to room %q: the journal %s: %w", o.roomID, j.files[j.active].name, err)
			}
			o.done <- answers[i]
		}
		return false
	}
	w.journalWrites++
	w.pend.mu.Lock()
	if w.pend.count == 0 {
		w.flushTimer.Reset(flushAfter)
	}
	for i, o := range batch {
		if answers[i] != nil {
			continue
		}
		if o.kind == opOpen {
			r := o.room
			r.Config, r.Seats = cloneBoth(r.Config, r.Seats)
			w.pend.opened[o.roomID] = r
		}
		for k, r := range o.recs {
			// The caller may reuse its buffers once answered.
			r.Events = nil
			r.Body, r.Clock = cloneBoth(r.Body, r.Clock)
			w.pend.rooms[o.roomID] = append(w.pend.rooms[o.roomID], journaled{rec: r, events: o.events[k]})
		}
		w.pend.count += len(o.recs)
	}
	full := w.pend.count >= flushEvery
	w.pend.mu.Unlock()
	maps.Copy(w.last, last)
	for i, o := range batch {
		o.done <- answers[i]
	}
	return full || j.files[j.active].size >= flushBytes
}

// moveFirst reports which of the journal's records a transaction of batch
// moves before its writes: all of them (all), when the move is asked for
// (opMove, or an empty batch), for the accounts' writes (opFunc, which may
// read any table) and for a reset (below); else those of the batch's rooms
// that have records in the journal (rooms), which must be in the database
// first (an append is checked against the room's last record there, a
// game's end takes the room out of last); all again after a failed move,
// which left no file spare. Other rooms' records wait for
// the move of all, after flushEvery records: moved at every game's end,
// each move wrote again the index pages of every game in play, about
// twenty rooms' at 250 AIWolf agents (docs/benchmarks.md).
//
// A room's move leaves its records in their file, which starts over only
// at the move of all; Open then skips what the database holds. A reset
// deletes a room's records, and its new game's would follow the old ones
// left in the file: so a reset moves all, and starts the file over even if
// nothing is pending (move).
func (w *writer) moveFirst(batch []*op) (all bool, rooms []string) {
	if len(batch) == 0 {
		return true, nil
	}
	if slices.ContainsFunc(batch, func(o *op) bool { return o.kind == opMove || o.kind == opFunc || o.kind == opReset }) {
		return true, nil
	}
	w.mu.Lock()
	noSpare := w.j != nil && !w.j.spare
	w.mu.Unlock()
	if noSpare { // a move failed: the next takes both files, and frees one
		return true, nil
	}
	w.pend.mu.Lock()
	defer w.pend.mu.Unlock()
	for _, o := range batch {
		if _, waiting := w.pend.rooms[o.roomID]; waiting && !slices.Contains(rooms, o.roomID) {
			rooms = append(rooms, o.roomID)
		}
	}
	return false, rooms
}

// move inserts the pending records in the transaction, those of all rooms
// or of rooms. A move of all marks their journal file's epoch moved; moved
// then starts the file over, and the appends made meanwhile go to the
// other file (swap). A move of all with nothing pending starts over a file
// that holds only records moved by their rooms' moves.
func (t *txn) move(ctx context.Context, all bool, rooms []string) error {
	w := t.w
	if w.j == nil {
		return nil
	}
	w.mu.Lock()
	w.pend.mu.Lock()
	var taking map[string][]journaled
	count := 0
	if all {
		taking, count = w.pend.rooms, w.pend.count
		if count > 0 || w.j.files[w.j.active].size > int64(headerSize) {
			t.opening = w.pend.opened
			w.pend.rooms, w.pend.opened, w.pend.count = map[string][]journaled{}, map[string]store.Room{}, 0
			t.epoch = w.j.swap()
			t.swapped = true
		}
	} else {
		taking = make(map[string][]journaled, len(rooms))
		for _, room := range rooms {
			if recs, ok := w.pend.rooms[room]; ok {
				taking[room] = recs
				count += len(recs)
				delete(w.pend.rooms, room)
			}
			if r, ok := w.pend.opened[room]; ok {
				if t.opening == nil {
					t.opening = map[string]store.Room{}
				}
				t.opening[room] = r
				delete(w.pend.opened, room)
			}
		}
		w.pend.count -= count
	}
	if count > 0 || t.swapped {
		w.pend.gen++ // odd: readers wait for the commit
		t.moving, t.moved = taking, count
	}
	w.pend.mu.Unlock()
	w.mu.Unlock()
	if t.moving == nil {
		return nil
	}
	for _, r := range t.opening { // before their records, which name them
		if _, err := t.stmt(ctx, &t.insertRoom, w.insertRoom).ExecContext(ctx, roomArgs(r)...); err != nil {
			return fmt.Errorf("the journal's rooms: %w", err)
		}
		t.pages++
	}
	// moveRows records an INSERT: a statement's execution costs about as
	// much as the row it inserts.
	args := make([]any, 0, moveRows*recordColumns)
	for room, recs := range t.moving {
		size := 0
		for _, r := range recs {
			size += len(r.rec.Kind) + len(r.rec.Body) + len(r.events) + len(r.rec.Clock) + recordOverhead
			args = append(args, room, r.rec.N, nanos(r.rec.At), r.rec.Kind, r.rec.Body, r.events, r.rec.Clock)
			if len(args) < cap(args) {
				continue
			}
			if _, err := t.stmt(ctx, &t.insertRecords, w.insertRecords).ExecContext(ctx, args...); err != nil {
				return fmt.Errorf("the journal's records: %w", err)
			}
			args = args[:0]
		}
		t.pages += size/pageSize + 2 // the last page filled, and the index's
	}
	for row := range slices.Chunk(args, recordColumns) { // the last few, one at a time
		if _, err := t.stmt(ctx, &t.insertRecord, w.insertRecord).ExecContext(ctx, row...); err != nil {
			return fmt.Errorf("the journal's records: %w", err)
		}
	}
	if !t.swapped {
		return nil
	}
	_, err := t.tx.ExecContext(ctx, `UPDATE journal SET epoch = ?`, t.epoch)
	return err
}

// moved ends t's move: committed (the file not taking appends starts
// over as the spare, of the epoch after next, and the active one too, of
// the next, if the move took both: hold), or not (its records are
// pending again, before those appended since, and stay in their file:
// the next move takes both).
func (w *writer) moved(t *txn, committed bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pend.mu.Lock()
	defer w.pend.mu.Unlock()
	defer func() { w.pend.gen++ }()
	if committed {
		w.sinceKick += t.pages
		if w.pend.count == 0 {
			w.flushTimer.Stop()
		}
	}
	if !t.swapped { // a move of rooms: their records stay in their file
		if !committed {
			w.putBack(t)
		}
		return
	}
	j := w.j
	both := j.hold
	w.moveAsked, j.hold = false, false
	if committed {
		restart := func(jf *journalFile, epoch int64) {
			if err := jf.restart(epoch); err != nil {
				j.broken = err
			}
		}
		if both {
			restart(j.files[j.active], t.epoch+1)
		}
		restart(j.files[1-j.active], t.epoch+2)
		j.spare = j.broken == nil
	} else {
		w.putBack(t)
	}
}

// putBack makes the records of t's failed move pending again, before those
// appended since (under w.mu and pend.mu).
func (w *writer) putBack(t *txn) {
	for room, recs := range t.moving {
		w.pend.rooms[room] = append(recs, w.pend.rooms[room]...)
	}
	maps.Copy(w.pend.opened, t.opening)
	w.pend.count += t.moved
	w.flushTimer.Reset(flushAfter)
}

// settled runs read under p.mu once no move is under way (one being
// committed may be storing what read looks for: it is waited for), and
// returns the gen read saw.
func (p *pending) settled(read func()) uint64 {
	for {
		p.mu.Lock()
		gen := p.gen
		if gen%2 == 0 {
			read()
		}
		p.mu.Unlock()
		if gen%2 == 0 {
			return gen
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// openedRoom is room id if it was opened in the journal and is not in the
// database yet.
func (p *pending) openedRoom(id string) (r store.Room, ok bool) {
	p.settled(func() { r, ok = p.opened[id] })
	return r, ok
}

// openedWith is the rooms opened in the journal with status, not in the
// database yet, as of gen.
func (p *pending) openedWith(status string) (gen uint64, rooms []store.Room) {
	gen = p.settled(func() {
		for _, r := range p.opened {
			if r.Status == status {
				rooms = append(rooms, r)
			}
		}
	})
	return gen, rooms
}

// movedSince reports whether a move began or ended since gen.
func (p *pending) movedSince(gen uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gen != gen
}

// withJournal reads a room's records from the database and, after them,
// those still in the journal. A move committed between the two reads would
// leave a room just reset with its records from before, so the reads are
// made again if one ran meanwhile.
func (d *DB) withJournal(ctx context.Context, roomID string) ([]store.Record, error) {
	p := d.w.pend
	for {
		var extra []journaled
		gen := p.settled(func() { extra = slices.Clone(p.rooms[roomID]) })
		recs, err := d.records(ctx, roomID)
		if err != nil {
			return nil, err
		}
		if p.movedSince(gen) {
			continue
		}
		for _, r := range extra {
			if len(recs) > 0 && r.rec.N <= recs[len(recs)-1].N {
				continue
			}
			rec := r.rec
			if rec.Events, err = store.DecodeEvents(r.events); err != nil {
				return nil, fmt.Errorf("record %d: %w", rec.N, err)
			}
			recs = append(recs, rec)
		}
		return recs, nil
	}
}

// cloneBoth copies a and b into one allocation; a nil stays nil (a NULL
// in the database).
func cloneBoth(a, b []byte) ([]byte, []byte) {
	buf := make([]byte, len(a)+len(b))
	ca, cb := buf[:len(a):len(a)], buf[len(a):]
	copy(ca, a)
	copy(cb, b)
	if a == nil {
		ca = nil
	}
	if b == nil {
		cb = nil
	}
	return ca, cb
}
