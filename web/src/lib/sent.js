// A night tap's mark on a phone (issue 23, SentMark): "sent" the moment it
// is tapped, "ok" once the server acknowledged it, "refused" (with the
// reason, the tap undone) when refused. The same for a command and a
// decoy. Pure.

// answered: the mark after the reply to a frame; null when the reply is
// not to the tap marked (it is someone else's business).
export function answered(sent, reply) {
  if (!sent || !reply || reply.id !== sent.id) return null;
  if (reply.type === 'ack') return { ...sent, state: 'ok' };
  return { id: sent.id, state: 'refused', code: reply.code, message: reply.message };
}
