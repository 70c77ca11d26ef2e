// Passkeys (WebAuthn) between the server's JSON and the browser's
// navigator.credentials, whose options and answers hold ArrayBuffers where
// the JSON holds base64url strings (docs/accounts.md).

export function fromB64url(s) {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

export function toB64url(buf) {
  const bytes = new Uint8Array(buf);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const ids = (list) => (list || []).map((c) => ({ ...c, id: fromB64url(c.id) }));

// creationOptions: the server's publicKey for navigator.credentials.create.
export function creationOptions(pk) {
  return { ...pk, challenge: fromB64url(pk.challenge), user: { ...pk.user, id: fromB64url(pk.user.id) }, excludeCredentials: ids(pk.excludeCredentials) };
}

// requestOptions: the server's publicKey for navigator.credentials.get.
export function requestOptions(pk) {
  return { ...pk, challenge: fromB64url(pk.challenge), allowCredentials: ids(pk.allowCredentials) };
}

// credentialJSON: the browser's answer as the server reads it.
export function credentialJSON(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    response,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
    authenticatorAttachment: cred.authenticatorAttachment || undefined,
  };
}

export const passkeysAvailable = () => typeof window !== 'undefined' && !!window.PublicKeyCredential && !!navigator.credentials;
