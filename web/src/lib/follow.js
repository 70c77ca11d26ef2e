// Scrolling a log to its newest line without forcing a layout: the box is
// measured and scrolled at the next frame, whose layout the browser does
// anyway to paint, rather than at once after the DOM changed (which makes
// the browser lay out the whole page there and then, a second time: the
// table's first drawing, just after the start, cost that most).

const asked = new WeakMap(); // box → the tests asked for its next frame

// scrollToEnd scrolls box to its end at the next frame when want(box)
// says so then (it may read the box's layout: it is fresh by then); asked
// several times before that frame, it scrolls once, if any test says so.
export function scrollToEnd(box, want = () => true, frame = globalThis.requestAnimationFrame) {
  if (!box) return;
  const tests = asked.get(box);
  if (tests) {
    tests.push(want);
    return;
  }
  asked.set(box, [want]);
  frame(() => {
    const all = asked.get(box);
    asked.delete(box);
    if (box.isConnected !== false && all.some((t) => t(box))) box.scrollTop = box.scrollHeight;
  });
}

// fromEnd is how far box's view is above its end, in pixels.
export const fromEnd = (box) => box.scrollHeight - box.scrollTop - box.clientHeight;
