import { describe, expect, it } from 'vitest';
import { sniffImageType } from '../../src/files/sniff.js';

describe('sniffImageType', () => {
  it('recognises the four image types by their magic bytes', () => {
    expect(sniffImageType(Buffer.from('89504e470d0a1a0a0000', 'hex'))?.mime).toBe('image/png');
    expect(sniffImageType(Buffer.from('ffd8ffe000104a464946', 'hex'))?.ext).toBe('jpg');
    expect(sniffImageType(Buffer.from('GIF89a\x01\x00', 'latin1'))?.mime).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'))?.mime).toBe(
      'image/webp',
    );
  });

  it('refuses executables, text and truncated headers', () => {
    expect(sniffImageType(Buffer.from('7f454c46020101000000', 'hex'))).toBeNull(); // ELF
    expect(sniffImageType(Buffer.from('MZ\x90\x00', 'latin1'))).toBeNull();
    expect(sniffImageType(Buffer.from('hello world', 'utf8'))).toBeNull();
    expect(sniffImageType(Buffer.from('89504e47', 'hex'))).toBeNull();
    expect(sniffImageType(Buffer.from('RIFF\x24\x00\x00\x00WAVE', 'latin1'))).toBeNull();
  });
});
