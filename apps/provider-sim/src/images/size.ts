// An image's width and height from its header (PNG, JPEG, WebP, GIF), without decoding it.

export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  try {
    if (bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a') {
      return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
    }
    if (bytes[0] === 0xff && bytes[1] === 0xd8) {
      for (let at = 2; at + 9 <= bytes.length; ) {
        const marker = bytes[at + 1]!;
        if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
          return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
        }
        at += 2 + bytes.readUInt16BE(at + 2);
      }
      return null;
    }
    if (bytes.toString('latin1', 8, 12) === 'WEBP') {
      const chunk = bytes.toString('latin1', 12, 16);
      if (chunk === 'VP8L') {
        const bits = bytes.readUInt32LE(21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
      }
      if (chunk === 'VP8X')
        return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
      return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    }
    if (bytes.toString('latin1', 0, 4) === 'GIF8') {
      return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
    }
  } catch {
    return null;
  }
  return null;
}
