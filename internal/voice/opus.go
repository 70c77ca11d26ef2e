package voice

// Every packet a listener receives has the same size, FrameSize bytes of
// Opus, whether it carries a voice or silence: a packet's size must not
// tell who speaks. A voice's packet is re-framed as an Opus "code 3"
// packet (RFC 6716 §3.2.5) with padding up to FrameSize; silence is the
// well-known silent CELT frame framed the same way. The browsers send
// constant bitrate at Bitrate (the offer asks for cbr=1), whose 20 ms
// frames (80 bytes at 32 kb/s) fit with room to spare.
const (
	FrameSize = 96
	Bitrate   = 32000
)

// silentFrame is a 20 ms mono CELT frame that decodes as silence: its TOC
// (config 31, code 0) and its two bytes.
var silentFrame = []byte{0xF8, 0xFF, 0xFE}

// silence is FrameSize bytes of silence, built once.
var silence = func() []byte {
	b, ok := pad(silentFrame)
	if !ok {
		panic("voice: the silent frame does not fit FrameSize")
	}
	return b
}()

// pad re-frames an Opus packet of one frame (code 0) or two equal frames
// (code 1) as a code 3 packet of exactly FrameSize bytes; false when the
// packet is of another code, empty, or too long to fit.
func pad(p []byte) ([]byte, bool) {
	if len(p) < 1 {
		return nil, false
	}
	toc := p[0]
	var frames byte
	switch toc & 3 {
	case 0:
		frames = 1
	case 1:
		if (len(p)-1)%2 != 0 {
			return nil, false
		}
		frames = 2
	default:
		return nil, false
	}
	data := p[1:]
	// TOC, frame count, one byte of padding length: enough for padding up
	// to 254 bytes, more than FrameSize leaves.
	padding := FrameSize - 3 - len(data)
	if padding < 0 || padding > 254 {
		return nil, false
	}
	out := make([]byte, 0, FrameSize)
	out = append(out, toc|3, 0x40|frames, byte(padding))
	out = append(out, data...)
	return out[:FrameSize], true // the padding bytes are zero
}
