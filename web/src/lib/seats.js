// Seat moves for the host's reordering (POST /api/rooms/ID/order).

// swapUp is the order that moves seat n one place up (it swaps with n-1):
// new seat i holds who sat at order[i-1].
export function swapUp(players, n) {
  const order = Array.from({ length: players }, (_, i) => i + 1);
  if (n > 1 && n <= players) [order[n - 2], order[n - 1]] = [order[n - 1], order[n - 2]];
  return order;
}
