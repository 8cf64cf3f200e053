import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/** The last id's time and random part, so ids minted in the same millisecond still ascend. */
let lastTime = 0;
const lastRandom = Buffer.alloc(10);

/** Adds one to the 80-bit random part; false when it overflows (all bits set). */
function increment(bytes: Buffer): boolean {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const byte = bytes[i]!;
    if (byte < 0xff) {
      bytes[i] = byte + 1;
      return true;
    }
    bytes[i] = 0;
  }
  return false;
}

/**
 * Opaque, prefixed, time-ordered ids (`req_01h…`): 48 bits of milliseconds then 80 random
 * bits, like a ULID. Time order keeps primary-key inserts at the right edge of the index.
 * Within one process they are monotonic, as ULID's monotonic factory: a second id in the same
 * millisecond (or after the clock stepped back) is the previous one plus one, so two events
 * written in one transaction, which share their `created_at`, still sort in the order they
 * were made.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  if (now > lastTime) {
    lastTime = now;
    randomBytes(10).copy(lastRandom);
  } else if (!increment(lastRandom)) {
    // 2^80 ids in one millisecond cannot happen; borrow the next millisecond all the same.
    lastTime += 1;
    randomBytes(10).copy(lastRandom);
  }
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(lastTime, 0, 6);
  lastRandom.copy(bytes, 6);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return `${prefix}_${out}`;
}
