import { describe, expect, it } from 'vitest';
import { level, peakHz, seatOfStream, SPEAKING } from './voice.svelte.js';

describe('voice', () => {
  it('reads the seat a track carries from its stream id', () => {
    expect(seatOfStream('seat-3')).toBe(3);
    expect(seatOfStream('seat-12')).toBe(12);
    expect(seatOfStream('mic')).toBe(0);
    expect(seatOfStream('seat-3x')).toBe(0);
    expect(seatOfStream(undefined)).toBe(0);
  });
  it('tells the server silence (zeros) from a voice', () => {
    expect(level(new Float32Array(256))).toBe(0);
    const tone = Float32Array.from({ length: 256 }, (_, i) => 0.2 * Math.sin(i / 3));
    expect(level(tone)).toBeGreaterThan(SPEAKING);
  });
  it("finds a tone's frequency from the loudest bin", () => {
    const bins = new Float32Array(1024).fill(-120);
    bins[20] = -10; // bin 20 of a 2048-point transform at 48 kHz
    expect(peakHz(bins, 48000, 2048)).toBe(469);
  });
});
