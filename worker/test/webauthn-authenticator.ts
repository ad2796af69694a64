import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A software passkey for tests below the browser: what an authenticator and the browser together
 * answer to WebAuthn's options (an ES256 key, "none" attestation, a counter that goes up by one),
 * with the origin the browser would put in its client data. The real browser's answers are
 * tested with Chromium's virtual authenticator (ssh-bridge/test/passkeys.test.ts).
 */
export class TestPasskey {
  private counter = 0;
  private userHandle = "";

  private constructor(
    private readonly keys: CryptoKeyPair,
    readonly id: string,
  ) {}

  static async create(): Promise<TestPasskey> {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    return new TestPasskey(
      keys,
      isoBase64URL.fromBuffer(crypto.getRandomValues(new Uint8Array(16))),
    );
  }

  /** The answer to `navigator.credentials.create` for these options, made at `origin`. */
  async register(
    options: PublicKeyCredentialCreationOptionsJSON,
    origin: string,
  ): Promise<RegistrationResponseJSON> {
    this.userHandle = options.user.id;
    const jwk = (await crypto.subtle.exportKey("jwk", this.keys.publicKey)) as JsonWebKey;
    // COSE_Key: kty EC2, alg ES256, crv P-256, x, y.
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(jwk.x ?? "")],
      [-3, isoBase64URL.toBuffer(jwk.y ?? "")],
    ]);
    const credentialId = isoBase64URL.toBuffer(this.id);
    const attested = concat(
      new Uint8Array(16),
      Uint8Array.of(credentialId.length >> 8, credentialId.length & 255),
      credentialId,
      isoCBOR.encode(coseKey),
    );
    // Flags: user present, user verified, attested credential data.
    const authData = concat(await this.header(options.rp.id ?? "", 0x45), attested);
    const attestation = new Map<string, string | Map<string, string> | Uint8Array>();
    attestation.set("fmt", "none");
    attestation.set("attStmt", new Map<string, string>());
    attestation.set("authData", authData);
    const attestationObject = isoCBOR.encode(attestation);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: clientData("webauthn.create", options.challenge, origin),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** The answer to `navigator.credentials.get`, made at `origin` for `rpId`. */
  async answer(
    options: PublicKeyCredentialRequestOptionsJSON,
    origin: string,
    rpId = options.rpId ?? "",
  ): Promise<AuthenticationResponseJSON> {
    const authenticatorData = await this.header(rpId, 0x05);
    const clientDataJSON = clientData("webauthn.get", options.challenge, origin);
    const clientHash = await sha256(isoBase64URL.toBuffer(clientDataJSON));
    const raw = new Uint8Array(
      await crypto.subtle.sign(
        { name: "ECDSA", hash: "SHA-256" },
        this.keys.privateKey,
        concat(authenticatorData, clientHash),
      ),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON,
        authenticatorData: isoBase64URL.fromBuffer(authenticatorData),
        signature: isoBase64URL.fromBuffer(derSignature(raw)),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** RP ID hash, flags and the next signature counter. */
  private async header(rpId: string, flags: number) {
    this.counter += 1;
    const counter = new Uint8Array(4);
    new DataView(counter.buffer).setUint32(0, this.counter);
    return concat(await sha256(new TextEncoder().encode(rpId)), Uint8Array.of(flags), counter);
  }
}

const clientData = (type: string, challenge: string, origin: string) =>
  isoBase64URL.fromUTF8String(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

async function sha256(bytes: Uint8Array) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function concat(...parts: Uint8Array[]) {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** WebCrypto's ECDSA signature (r ‖ s) as WebAuthn carries it: an ASN.1 DER SEQUENCE of two INTEGERs. */
function derSignature(raw: Uint8Array) {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.subarray(start);
    const value = (trimmed[0] ?? 0) & 0x80 ? concat(Uint8Array.of(0), trimmed) : trimmed;
    return concat(Uint8Array.of(0x02, value.length), value);
  };
  const body = concat(integer(raw.subarray(0, 32)), integer(raw.subarray(32)));
  return concat(Uint8Array.of(0x30, body.length), body);
}
