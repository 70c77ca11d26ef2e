// The room's voice (docs/voice.md): the browser sends its microphone to the
// server and receives one track per seat; the server decides, from the
// game, whose voice each track carries at each moment (silence otherwise),
// so this page only plays what arrives and shows who is heard.
import { api } from './api.js';

// seatOfStream reads the seat a received track carries ("seat-3").
export function seatOfStream(id) {
  const m = /^seat-(\d+)$/.exec(id || '');
  return m ? Number(m[1]) : 0;
}

// level is the loudness of an analyser's frame (RMS of its samples).
export function level(samples) {
  let sum = 0;
  for (const x of samples) sum += x * x;
  return samples.length ? Math.sqrt(sum / samples.length) : 0;
}

// peakHz is the frequency of the loudest bin of a frequency frame.
export function peakHz(bins, sampleRate, fftSize) {
  let best = -Infinity;
  let at = 0;
  for (let i = 1; i < bins.length; i++) {
    if (bins[i] > best) {
      best = bins[i];
      at = i;
    }
  }
  return Math.round((at * sampleRate) / fftSize);
}

// Above this level a seat's track carries a voice, not the server's
// silence (which decodes to zeros).
export const SPEAKING = 0.01;

export const voice = $state({
  on: false, // joined
  joining: false,
  mic: false, // the microphone was granted
  muted: false,
  ptt: false, // push-to-talk: the microphone opens while the button is held
  talking: false, // the push-to-talk button is held
  heard: {}, // seat → true while its track carries a voice
  hz: {}, // seat → the loudest frequency heard from it (tests)
  volume: {}, // seat → 0…1
  error: '',
});

let pc = null;
let ctx = null;
let micStream = null;
let timer = 0;
const seats = new Map(); // seat → { gain, analyser, audio }

function applyMic() {
  if (!micStream) return;
  const open = !voice.muted && (!voice.ptt || voice.talking);
  for (const tr of micStream.getAudioTracks()) tr.enabled = open; // a closed microphone sends silence, at the same rate
}

export function setMuted(on) {
  voice.muted = on;
  applyMic();
}
export function setPtt(on) {
  voice.ptt = on;
  voice.talking = false;
  applyMic();
}
export function setTalking(on) {
  voice.talking = on;
  applyMic();
}
export function setVolume(seat, v) {
  voice.volume[seat] = v;
  const s = seats.get(seat);
  if (s) s.gain.gain.value = v;
}

function listen(seat, stream) {
  // Chrome feeds a remote stream to Web Audio only while a media element
  // plays it: a muted element does, and the sound goes out through the
  // gain, where the per-seat volume applies.
  const audio = new Audio();
  audio.muted = true;
  audio.srcObject = stream;
  audio.play().catch(() => {});
  const src = ctx.createMediaStreamSource(stream);
  const gain = ctx.createGain();
  gain.gain.value = voice.volume[seat] ?? 1;
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 2048;
  src.connect(analyser);
  src.connect(gain).connect(ctx.destination);
  seats.set(seat, { gain, analyser, audio });
}

function watch() {
  const t = new Float32Array(2048);
  const f = new Float32Array(1024);
  timer = setInterval(() => {
    const heard = {};
    const hz = {};
    for (const [seat, s] of seats) {
      s.analyser.getFloatTimeDomainData(t);
      if (level(t) > SPEAKING) {
        heard[seat] = true;
        s.analyser.getFloatFrequencyData(f);
        hz[seat] = peakHz(f, ctx.sampleRate, s.analyser.fftSize);
      }
    }
    voice.heard = heard;
    voice.hz = hz;
  }, 100);
}

// joinVoice opens the voice of room id for the seat of token (a spectator
// with none). A refused microphone still joins: the page listens.
export async function joinVoice(id, token) {
  if (voice.on || voice.joining) return;
  voice.joining = true;
  voice.error = '';
  try {
    const offer = await api.voiceOffer(id, token);
    ctx = new AudioContext();
    pc = new RTCPeerConnection({ iceServers: offer.ice_servers || [] });
    pc.ontrack = (e) => {
      const seat = seatOfStream(e.streams[0] && e.streams[0].id);
      if (seat) listen(seat, e.streams[0] || new MediaStream([e.track]));
    };
    await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    if (token) {
      try {
        micStream = await navigator.mediaDevices.getUserMedia({
          audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
        });
        voice.mic = true;
        const tr = pc.getTransceivers()[0]; // the server's first line takes the microphone
        await tr.sender.replaceTrack(micStream.getAudioTracks()[0]);
        tr.direction = 'sendonly';
        applyMic();
      } catch {
        voice.mic = false; // listen only
      }
    }
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    await gathered(pc);
    await api.voiceAnswer(id, token, offer.id, pc.localDescription.sdp);
    if (ctx.state === 'suspended') await ctx.resume();
    watch();
    voice.on = true;
  } catch (err) {
    voice.error = (err && (err.code || err.message)) || 'voice';
    leaveVoice();
  } finally {
    voice.joining = false;
  }
}

function gathered(pc) {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => pc.iceGatheringState === 'complete' && resolve();
    pc.addEventListener('icegatheringstatechange', done);
    setTimeout(resolve, 5000); // what was gathered by then
  });
}

export function leaveVoice() {
  clearInterval(timer);
  timer = 0;
  for (const s of seats.values()) s.audio.srcObject = null;
  seats.clear();
  if (micStream) for (const tr of micStream.getTracks()) tr.stop();
  micStream = null;
  if (pc) pc.close();
  pc = null;
  if (ctx) ctx.close().catch(() => {});
  ctx = null;
  voice.on = false;
  voice.mic = false;
  voice.heard = {};
  voice.hz = {};
}
