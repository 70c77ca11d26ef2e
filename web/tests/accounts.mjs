// Accounts in Chromium against a real server (docs/accounts.md): sign up
// with a password, sign out and in again, add a passkey and sign in with
// it through Chromium's virtual authenticator (CDP WebAuthn), claim a game
// played as a guest, make the profile private, delete the account; then
// sign up with a passkey alone (no password signs that account in).
//
// Along the way: the session cookie is HttpOnly (document.cookie never
// shows it), the lobby says who is signed in, and the deleted account's
// seat reads "deleted player".
//
// The page is opened at http://localhost:PORT, not 127.0.0.1: passkeys
// belong to a domain name, and localhost is one (a secure context in
// Chromium over plain HTTP).
//
//   node tests/accounts.mjs           builds the client and the server first
//   WOLFDEN_BIN=/path/wolfden ...     uses that binary (its embedded client)
//   CHROMIUM=/path/chromium ...       another Chromium than /usr/bin/chromium
import { chromium } from 'playwright-core';
import { api, startServer } from './server.mjs';

const LIMIT = Number(process.env.ACCOUNTS_LIMIT_S || 400) * 1000;
const started = Date.now();
const log = (...a) => console.log(`[accounts ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...a);
setTimeout(() => {
  console.error(`accounts: over ${LIMIT / 1000}s, giving up`);
  process.exit(1);
}, LIMIT).unref();

const problems = [];
function check(ok, msg) {
  if (!ok) throw new Error(msg);
}

let browser;
try {
  const srv = await startServer({ name: 'accounts', log });
  const base = srv.base.replace('127.0.0.1', 'localhost');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    // a refused request (the wrong password's 401) is logged by the browser itself
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console error: ${m.text()}`);
  });

  // The virtual authenticator: a platform passkey store that says yes.
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  const status = () => page.getByTestId('account-status').innerText();
  const waitStatus = async (re) => {
    await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid=account-status]').innerText), re.source);
  };
  const me = () => page.evaluate(async () => {
    const r = await fetch('/api/me');
    return r.status === 200 ? r.json() : { status: r.status };
  });

  // A game played as a guest before the account exists: its seat's token
  // is what this device keeps, as the client keeps it.
  const guest = await api(srv.base, 'POST', '/api/rooms', { preset: 'std-9', nickname: 'Ada' });
  await page.goto(base + '/');
  await page.evaluate(([id, auth]) => localStorage.setItem('wolfden.room.' + id, JSON.stringify({ ...auth, at: Date.now() })), [
    guest.room.id, { token: guest.token, seat: guest.seat },
  ]);
  check((await page.getByTestId('lobby-who').innerText()).includes('guest'), 'the lobby does not say the player is a guest');

  log('sign up with a password');
  await page.goto(base + '/account');
  await page.fill('#new-name', 'Ada Lovelace');
  await page.fill('#new-password', 'analytical-engine');
  await page.getByTestId('sign-up').click();
  await page.getByTestId('account-me').waitFor();
  check((await page.getByTestId('account-me').innerText()).includes('Signed in as Ada Lovelace'), 'not signed in after the sign-up');

  const cookies = await ctx.cookies();
  const session = cookies.find((c) => c.name === 'wolfden_session');
  check(session && session.httpOnly && session.sameSite === 'Strict', `the session cookie: ${JSON.stringify(session)}`);
  const seen = await page.evaluate(() => document.cookie);
  check(!seen.includes('wolfden_session') && !seen.includes(session.value), `document.cookie shows the session: ${seen}`);

  await page.goto(base + '/');
  await page.waitForFunction(() => document.querySelector('[data-testid=lobby-who]').innerText.includes('Ada Lovelace'));
  check((await page.getByTestId('account-chip').innerText()).includes('Ada Lovelace'), 'the header does not show who is signed in');

  log('sign out, and in again with the password');
  await page.goto(base + '/account');
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-in-form').waitFor();
  check((await me()).status === 204, 'still signed in after signing out');
  await page.fill('#acc-name', 'ada lovelace');
  await page.fill('#acc-password', 'wrong password');
  await page.getByTestId('sign-in').click();
  await waitStatus(/name or the password is wrong/);
  await page.fill('#acc-password', 'analytical-engine');
  await page.getByTestId('sign-in').click();
  await page.getByTestId('account-me').waitFor();

  log('add a passkey, sign out, sign in with it');
  await page.getByTestId('passkey-add').click();
  await waitStatus(/Passkey added/);
  check((await page.getByTestId('account-passkeys').innerText()).includes('1'), 'the passkey is not counted');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  check(credentials.length === 1 && credentials[0].isResidentCredential, `the authenticator holds ${JSON.stringify(credentials)}`);
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-in-form').waitFor();
  await page.getByTestId('passkey-sign-in').click();
  await page.getByTestId('account-me').waitFor();
  check((await me()).name === 'Ada Lovelace', 'the passkey did not sign Ada in');

  log('claim the guest game');
  await page.getByTestId('account-claim').click();
  await waitStatus(/Games claimed: 1/);

  log('make the profile private');
  await page.getByTestId('account-public').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=account-privacy]').innerText.includes('private'));
  check((await me()).public === false, 'the profile is still public');
  await page.reload();
  await page.getByTestId('account-me').waitFor();
  check(!(await page.getByTestId('account-public').isChecked()), 'the privacy switch is on after a reload');

  log('delete the account');
  await page.getByTestId('account-delete').click();
  await page.getByTestId('account-delete-yes').click();
  await waitStatus(/account was deleted/);
  await page.getByTestId('sign-in-form').waitFor();
  check((await me()).status === 204, 'still signed in after the deletion');
  check(!(await ctx.cookies()).some((c) => c.name === 'wolfden_session' && c.value), 'the session cookie outlived the account');
  const room = await api(srv.base, 'GET', '/api/rooms/' + guest.room.id);
  check(room.seats[0].deleted === true && !room.seats[0].nick, `the claimed seat after the deletion: ${JSON.stringify(room.seats[0])}`);
  await page.goto(base + '/room/' + guest.room.id);
  await page.waitForFunction(() => document.body.innerText.includes('deleted player'));
  // The passkey left in the authenticator signs nobody in.
  await page.goto(base + '/account');
  await page.getByTestId('passkey-sign-in').click();
  await waitStatus(/wrong/);
  check((await me()).status === 204, "a deleted account's passkey signed in");

  log('sign up with a passkey only, sign out, sign in with it');
  await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credentials[0].credentialId });
  await page.fill('#new-name', 'Grace Hopper');
  await page.getByTestId('passkey-sign-up').click();
  await page.getByTestId('account-me').waitFor();
  check((await page.getByTestId('account-me').innerText()).includes('Signed in as Grace Hopper'), 'not signed in after the passkey sign-up');
  check((await page.getByTestId('account-passkeys').innerText()).includes('1'), 'the passkey of the sign-up is not counted');
  await page.getByTestId('sign-out').click();
  await page.getByTestId('sign-in-form').waitFor();
  // no password was set: none signs her in
  await page.fill('#acc-name', 'Grace Hopper');
  await page.fill('#acc-password', 'any password at all');
  await page.getByTestId('sign-in').click();
  await waitStatus(/name or the password is wrong/);
  await page.getByTestId('passkey-sign-in').click();
  await page.getByTestId('account-me').waitFor();
  check((await me()).name === 'Grace Hopper', 'the passkey of the sign-up did not sign Grace in');

  check(problems.length === 0, 'errors in the page:\n' + problems.join('\n'));
  log('passed', await status());
  await browser.close();
  await srv.stop();
  process.exit(0);
} catch (err) {
  console.error('accounts:', err.message);
  if (problems.length) console.error(problems.join('\n'));
  if (browser) await browser.close().catch(() => {});
  process.exit(1);
}
