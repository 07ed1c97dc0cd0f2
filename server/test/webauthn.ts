import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

// A software authenticator for the API tests: it makes real ES256 credentials and answers
// WebAuthn ceremonies as a browser would (attestation "none", discoverable credentials), with a
// signature counter the test can set. The e2e tests use Chromium's own virtual authenticator.

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

/** The head of a CBOR item: major type and length or value (RFC 8949 section 3). */
function cborHead(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) return Buffer.from([(major << 5) | 25, value >> 8, value & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(value, 1);
  return out;
}

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Map) return Buffer.concat([cborHead(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  return Buffer.concat([cborHead(2, value.length), Buffer.from(value)]);
}

const b64url = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  cose: Buffer;
  userHandle: string;
  counter: number;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  private readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Credential): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts: Buffer[] = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(attested.id.length);
      parts.push(Buffer.alloc(16), length, attested.id, attested.cose);
    }
    return Buffer.concat(parts);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() with the server's options; answers what the browser would send. */
  register(options: Record<string, unknown>) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
    const user = options.user as { id: string };
    const credential: Credential = { id: randomBytes(32), privateKey, cose, userHandle: user.id, counter: 0 };
    this.credentials.push(credential);
    const rpId = (options.rp as { id: string }).id;
    // Flags: user present, user verified, attested credential data.
    const attestation = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.authData(rpId, 0x01 | 0x04 | 0x40, 0, credential)],
      ]),
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge as string)),
        attestationObject: b64url(attestation),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * navigator.credentials.get() with the server's options, signed by a credential (the last one
   * made by default) with its counter moved on by one, or set to `counter`.
   */
  login(options: Record<string, unknown>, settings: { credential?: Credential; counter?: number; rpId?: string; origin?: string } = {}) {
    const credential = settings.credential ?? this.credentials.at(-1);
    if (!credential) throw new Error('no credential: register first');
    credential.counter = settings.counter ?? credential.counter + 1;
    const authData = this.authData(settings.rpId ?? (options.rpId as string), 0x01 | 0x04, credential.counter);
    const clientData = this.clientData('webauthn.get', options.challenge as string, settings.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
