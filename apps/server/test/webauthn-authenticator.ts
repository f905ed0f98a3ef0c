/**
 * A software authenticator for tests: what a browser and a platform authenticator would answer
 * to WebAuthn creation and request options, with a real ES256 key pair (node:crypto), an
 * attestation of format "none" and signed assertions. Each answer can be bent (another origin,
 * RP id, challenge or counter) to check that the server refuses it.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { expect } from 'vitest';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { PATHS } from '@master-admin/contract';
import type { TestServer } from './harness.ts';

/** authenticatorData flags (WebAuthn §6.1). */
export const FLAGS = { UP: 0x01, UV: 0x04, AT: 0x40 } as const;

/** What may be bent in an answer; by default it is what a browser on `origin` would send. */
export type Bend = {
  origin?: string;
  rpId?: string;
  challenge?: string;
  /** The signature counter to report (by default one more than the last). */
  counter?: number;
  flags?: number;
  type?: string;
};

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(data));
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  readonly #privateKey: KeyObject;
  readonly #publicKey: KeyObject;
  readonly #rpId: string;
  readonly #origin: string;
  /** The last signature counter reported. */
  counter = 0;
  /** The user handle the creation options gave (base64url), answered with each assertion. */
  userHandle: string | undefined;

  constructor(options: { rpId: string; origin: string }) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    this.#publicKey = publicKey;
    this.#rpId = options.rpId;
    this.#origin = options.origin;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The public key as COSE (EC2, P-256, ES256). */
  #coseKey(): Uint8Array {
    const jwk = this.#publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
  }

  #clientData(type: string, challenge: string, bend: Bend): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: bend.type ?? type,
        challenge: bend.challenge ?? challenge,
        origin: bend.origin ?? this.#origin,
        crossOrigin: false,
      }),
    );
  }

  #authenticatorData(flags: number, counter: number, bend: Bend, attested?: Uint8Array): Buffer {
    return Buffer.concat([
      sha256(bend.rpId ?? this.#rpId),
      Buffer.from([bend.flags ?? flags]),
      u32(counter),
      ...(attested ? [attested] : []),
    ]);
  }

  /** The answer to `navigator.credentials.create(options)`, as @simplewebauthn/browser sends it. */
  register(options: { challenge: string; user: { id: string } }, bend: Bend = {}) {
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      this.#coseKey(),
    ]);
    const counter = bend.counter ?? this.counter;
    const authData = this.#authenticatorData(
      FLAGS.UP | FLAGS.UV | FLAGS.AT,
      counter,
      bend,
      attested,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.#clientData('webauthn.create', options.challenge, bend)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** The answer to `navigator.credentials.get(options)`, signed with this passkey's key. */
  assert(options: { challenge: string }, bend: Bend = {}) {
    const counter = bend.counter ?? this.counter + 1;
    if (bend.counter === undefined) this.counter = counter;
    const authData = this.#authenticatorData(FLAGS.UP | FLAGS.UV, counter, bend);
    const clientData = this.#clientData('webauthn.get', options.challenge, bend);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      this.#privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

/**
 * The calls of the passkey ceremonies on `s`, as the web app makes them, with software
 * authenticators for `s`'s relying party. Sign-in calls are rate limited per address: each comes
 * from an address of its own unless told.
 */
export function passkeyCeremonies(s: TestServer) {
  const { rpId, origins } = s.config.webauthn;
  let addresses = 0;
  const nextAddress = () => {
    addresses += 1;
    return `10.7.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
  };
  const newAuthenticator = () => new SoftwareAuthenticator({ rpId, origin: origins[0]! });

  async function registerOptions(
    token: string,
  ): Promise<{ challenge: string; user: { id: string } }> {
    const res = await s.api({ method: 'POST', url: PATHS.passkeyRegisterOptions, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const registerVerify = (token: string, payload: unknown) =>
    s.api({ method: 'POST', url: PATHS.passkeyRegisterVerify, token, payload: payload as object });

  /** Adds a passkey to the account of `token`: the authenticator and the passkey's id. */
  async function addPasskey(token: string, name = 'Laptop') {
    const authenticator = newAuthenticator();
    const options = await registerOptions(token);
    const res = await registerVerify(token, { name, response: authenticator.register(options) });
    expect(res.statusCode, res.body).toBe(200);
    return { authenticator, id: res.json<{ result: { id: number } }>().result.id };
  }

  async function loginOptions(payload: object = {}, remoteAddress = nextAddress()) {
    const res = await s.api({
      method: 'POST',
      url: PATHS.passkeyLoginOptions,
      payload,
      remoteAddress,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ challenge: string; allowCredentials?: unknown[] }>();
  }

  const loginVerify = (response: unknown, remoteAddress = nextAddress()) =>
    s.api({
      method: 'POST',
      url: PATHS.passkeyLoginVerify,
      payload: { response },
      remoteAddress,
      headers: { 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Firefox/140.0' },
    });

  /** Signs in with `authenticator` (options for `email`, when given), its answer bent by `bend`. */
  async function signIn(
    authenticator: SoftwareAuthenticator,
    options: { email?: string; bend?: Bend; remoteAddress?: string } = {},
  ) {
    const address = options.remoteAddress ?? nextAddress();
    const challenge = await loginOptions(options.email ? { email: options.email } : {}, address);
    return loginVerify(authenticator.assert(challenge, options.bend), address);
  }

  return {
    rpId,
    nextAddress,
    newAuthenticator,
    registerOptions,
    registerVerify,
    addPasskey,
    loginOptions,
    loginVerify,
    signIn,
  };
}
