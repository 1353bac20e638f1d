// A real lossless WebP (RIFF "WEBP" + one VP8L chunk) of one flat colour, built in code: with no
// transform, no colour cache and five prefix codes of one symbol each, every pixel decodes from
// zero bits, so the file is about 30 bytes whatever its size.

/** Writes bits least significant first (VP8L's order). */
class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private count = 0;

  write(value: number, bits: number): void {
    for (let i = 0; i < bits; i++) {
      this.current |= ((value >> i) & 1) << this.count;
      if (++this.count === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.count = 0;
      }
    }
  }

  finish(): Buffer {
    if (this.count > 0) this.bytes.push(this.current);
    return Buffer.from(this.bytes);
  }
}

/** A "simple" prefix code with one symbol: it takes no bits to read. */
function singleSymbolCode(bits: BitWriter, symbol: number): void {
  bits.write(1, 1); // simple code
  bits.write(0, 1); // one symbol
  const wide = symbol > 1;
  bits.write(wide ? 1 : 0, 1);
  bits.write(symbol, wide ? 8 : 1);
}

/**
 * Encodes a `width` × `height` image of one colour (RGBA, 0–255 each) as a lossless WebP.
 *
 * @example
 * encodeFlatWebp(1024, 1024, [200, 80, 40, 255]).subarray(8, 12).toString(); // 'WEBP'
 */
export function encodeFlatWebp(
  width: number,
  height: number,
  [red, green, blue, alpha]: readonly [number, number, number, number],
): Buffer {
  const bits = new BitWriter();
  bits.write(0x2f, 8); // VP8L signature
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(alpha < 255 ? 1 : 0, 1);
  bits.write(0, 3); // version
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  for (const symbol of [green, red, blue, alpha, 0]) singleSymbolCode(bits, symbol);
  const data = bits.finish();
  const padded = data.length % 2 === 1 ? Buffer.concat([data, Buffer.alloc(1)]) : data;
  const head = Buffer.alloc(20);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(12 + padded.length, 4);
  head.write('WEBPVP8L', 8, 'latin1');
  head.writeUInt32LE(data.length, 16);
  return Buffer.concat([head, padded]);
}
