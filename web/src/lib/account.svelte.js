// Who is signed in (docs/accounts.md). The session itself is an HttpOnly
// cookie this page never sees; it asks the server (GET /api/me).
import { api } from './api.js';
import { creationOptions, credentialJSON, requestOptions } from './passkeys.js';
import { myRooms } from './storage.js';

export const account = $state({ me: null, loaded: false });

export async function refreshMe() {
  try {
    account.me = await api.me();
  } catch {
    account.me = null;
  } finally {
    account.loaded = true;
  }
  return account.me;
}

export async function signUp(name, password) {
  account.me = await api.signUp(name, password);
}

export async function signIn(name, password) {
  account.me = await api.signIn(name, password);
}

export async function signOut() {
  await api.signOut();
  account.me = null;
}

// registerPasskey adds a passkey to the signed-in account, or makes a new
// account named name with it.
export async function registerPasskey(name) {
  const begun = await api.passkeyBegin('register', account.me ? {} : { name });
  const cred = await navigator.credentials.create({ publicKey: creationOptions(begun.publicKey) });
  account.me = await api.passkeyFinish('register', begun.ceremony, credentialJSON(cred));
}

export async function passkeySignIn() {
  const begun = await api.passkeyBegin('login');
  const cred = await navigator.credentials.get({ publicKey: requestOptions(begun.publicKey) });
  account.me = await api.passkeyFinish('login', begun.ceremony, credentialJSON(cred));
}

export async function setPublic(pub) {
  account.me = await api.setPublic(pub);
}

export async function deleteAccount() {
  await api.deleteMe();
  account.me = null;
}

// claimGuestSeats links to the account the seats this device played as a
// guest, proven by the tokens it kept for them.
export async function claimGuestSeats() {
  const seats = myRooms()
    .filter((r) => r.token)
    .slice(0, 100)
    .map((r) => ({ room: r.id, token: r.token }));
  if (!seats.length) return { claimed: [], refused: 0 };
  return api.claim(seats);
}
