// A real baseline JPEG of one flat grey, built in code: one colour component, a quantisation table
// of ones, and Huffman tables holding only the codes the image uses (a DC difference category and
// end-of-block), so every 8×8 block after the first costs three bits. Decoders read any tables a
// file defines; these are legal, just minimal.

/** Writes bits most significant first, stuffing a zero byte after every 0xFF (JPEG's rule). */
class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private count = 0;

  write(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) {
      this.current = (this.current << 1) | ((value >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }

  /** Pads the last byte with ones, as the standard asks. */
  finish(): Buffer {
    while (this.count !== 0) this.write(1, 1);
    return Buffer.from(this.bytes);
  }

  private flushByte(): void {
    this.bytes.push(this.current);
    if (this.current === 0xff) this.bytes.push(0x00);
    this.current = 0;
    this.count = 0;
  }
}

function segment(marker: number, body: number[]): Buffer {
  const length = body.length + 2;
  return Buffer.from([0xff, marker, length >> 8, length & 0xff, ...body]);
}

/** A DHT segment: table class and id, codes counted per length (1–16), then the symbols. */
function huffmanTable(classAndId: number, countsByLength: number[], symbols: number[]): Buffer {
  const counts = Array.from({ length: 16 }, (_, i) => countsByLength[i] ?? 0);
  return segment(0xc4, [classAndId, ...counts, ...symbols]);
}

/** The number of bits of a DC difference (its JPEG "category"). */
function category(value: number): number {
  return value === 0 ? 0 : Math.floor(Math.log2(Math.abs(value))) + 1;
}

/**
 * Encodes a `width` × `height` image of one grey level (0–255) as a baseline JPEG.
 *
 * @example
 * encodeFlatJpeg(1024, 1024, 128).subarray(0, 2); // <Buffer ff d8>
 */
export function encodeFlatJpeg(width: number, height: number, grey: number): Buffer {
  // A flat 8×8 block's only coefficient is DC = 8 × (level − 128); with a quantiser of 1 it is coded as is.
  const dc = 8 * (Math.round(grey) - 128);
  const dcCategory = category(dc);
  // Two DC codes of length 2: '00' = difference 0 (every block but the first), '01' = the first.
  const dcTable = huffmanTable(0x00, [0, 2], [0, dcCategory === 0 ? 1 : dcCategory]);
  // One AC code of length 1: '0' = end of block.
  const acTable = huffmanTable(0x10, [1], [0x00]);
  const bits = new BitWriter();
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  for (let block = 0; block < blocks; block++) {
    if (block === 0 && dcCategory > 0) {
      bits.write(0b01, 2);
      bits.write(dc > 0 ? dc : dc + (1 << dcCategory) - 1, dcCategory);
    } else {
      bits.write(0b00, 2);
    }
    bits.write(0, 1);
  }
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]),
    segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    dcTable,
    acTable,
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    bits.finish(),
    Buffer.from([0xff, 0xd9]),
  ]);
}
