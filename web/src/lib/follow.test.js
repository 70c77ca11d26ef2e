import { describe, expect, it } from 'vitest';
import { fromEnd, scrollToEnd } from './follow.js';

function frames() {
  const q = [];
  const frame = (f) => q.push(f);
  frame.run = () => q.splice(0).forEach((f) => f());
  frame.size = () => q.length;
  return frame;
}

describe('scrollToEnd', () => {
  it('scrolls at the next frame, not at once', () => {
    const box = { scrollTop: 0, scrollHeight: 500, clientHeight: 100, isConnected: true };
    const frame = frames();
    scrollToEnd(box, undefined, frame);
    expect(box.scrollTop).toBe(0);
    frame.run();
    expect(box.scrollTop).toBe(500);
    expect(fromEnd({ ...box, scrollTop: 400 })).toBe(0);
  });

  it('asks once a frame, and scrolls if any test says so then', () => {
    const box = { scrollTop: 0, scrollHeight: 500, clientHeight: 100, isConnected: true };
    const frame = frames();
    let stuck = true;
    scrollToEnd(box, () => stuck, frame);
    scrollToEnd(box, () => stuck, frame);
    expect(frame.size()).toBe(1);
    stuck = false; // he scrolled away before the frame
    frame.run();
    expect(box.scrollTop).toBe(0);
    scrollToEnd(box, () => true, frame); // a channel just opened
    scrollToEnd(box, () => false, frame);
    frame.run();
    expect(box.scrollTop).toBe(500);
    box.scrollTop = 0;
    scrollToEnd(box, (b) => fromEnd(b) > 0, frame);
    frame.run();
    expect(box.scrollTop).toBe(500);
  });

  it('leaves a box gone from the page alone', () => {
    const box = { scrollTop: 0, scrollHeight: 500, clientHeight: 100, isConnected: false };
    const frame = frames();
    scrollToEnd(box, undefined, frame);
    frame.run();
    expect(box.scrollTop).toBe(0);
    scrollToEnd(null, undefined, frame);
    expect(frame.size()).toBe(0);
  });
});
