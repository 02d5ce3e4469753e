import { createHmac } from 'node:crypto';

/**
 * RFC 6238 TOTP, written here from the RFC (and checked against its vectors in
 * `second-factor.test.ts`) so the tests compute codes without the server's own code.
 */
export function totp(key: Buffer, unixSeconds: number, { digits = 6, period = 30, algorithm = 'sha1' } = {}): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / period)));
  const mac = createHmac(algorithm, key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** RFC 4648 base32, as an `otpauth://` URI carries its secret. */
export function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}

/** The key of an `otpauth://totp/…?secret=…` URI. */
export const keyOfUri = (uri: string) => base32Decode(new URL(uri).searchParams.get('secret') ?? '');
