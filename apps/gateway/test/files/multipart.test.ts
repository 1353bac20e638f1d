import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { boundaryOf, MultipartError, readMultipart } from '../../src/files/multipart.js';

function body(boundary: string, parts: { headers: string; data: Buffer }[]): Buffer {
  const chunks: Buffer[] = [Buffer.from('preamble to ignore\r\n')];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\n${part.headers}\r\n\r\n`),
      part.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

async function* inChunks(data: Buffer, size: number) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const c of source) chunks.push(c);
  return Buffer.concat(chunks);
}

describe('readMultipart', () => {
  const boundary = '----formdata-test-7MA4YWxkTrZu0gW';
  // Bytes that contain CRLF and dashes, to catch delimiter false positives.
  const file = Buffer.concat([
    randomBytes(5000),
    Buffer.from(`\r\n--${boundary.slice(0, 10)}`),
    randomBytes(3000),
  ]);
  const raw = body(boundary, [
    { headers: 'Content-Disposition: form-data; name="purpose"', data: Buffer.from('image') },
    {
      headers:
        'Content-Disposition: form-data; name="file"; filename="a \\"b\\".png"\r\nContent-Type: image/png',
      data: file,
    },
  ]);

  for (const size of [1, 7, 64, 100_000]) {
    it(`parses fields and files delivered in ${size}-byte chunks`, async () => {
      const seen: Record<string, unknown> = {};
      for await (const part of readMultipart(inChunks(raw, size), boundary)) {
        if (part.filename !== undefined) {
          seen.filename = part.filename;
          seen.contentType = part.contentType;
          seen.file = await collect(part.body);
        } else {
          seen[part.name] = await part.text(100);
        }
      }
      expect(seen.purpose).toBe('image');
      expect(seen.filename).toBe('a "b".png');
      expect(seen.contentType).toBe('image/png');
      expect((seen.file as Buffer).equals(file)).toBe(true);
    });
  }

  it('drains parts the consumer skips', async () => {
    const names: string[] = [];
    for await (const part of readMultipart(inChunks(raw, 13), boundary)) names.push(part.name);
    expect(names).toEqual(['purpose', 'file']);
  });

  it('refuses a truncated body', async () => {
    const parts = async () => {
      for await (const part of readMultipart(
        inChunks(raw.subarray(0, raw.length - 40), 50),
        boundary,
      )) {
        await collect(part.body);
      }
    };
    await expect(parts()).rejects.toBeInstanceOf(MultipartError);
  });

  it('reads the boundary from the content type', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="x y"')).toBe('x y');
    expect(boundaryOf('application/json')).toBeNull();
  });
});
