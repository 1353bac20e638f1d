// Builds a minimal, valid-enough MP4 (ftyp + moov{mvhd, trak{tkhd}} + mdat) for probe tests.
function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

export function buildMp4(opts: {
  seconds: number;
  width: number;
  height: number;
  mdatBytes?: number;
}): Buffer {
  const timescale = 1000;
  const ftyp = box(
    'ftyp',
    Buffer.from('isom'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2mp41'),
  );
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(timescale, 12);
  mvhd.writeUInt32BE(Math.round(opts.seconds * timescale), 16);
  const tkhd = Buffer.alloc(84);
  tkhd.writeUInt32BE(7, 0); // version 0, flags enabled|in movie|in preview
  tkhd.writeUInt32BE(opts.width * 65536, 76);
  tkhd.writeUInt32BE(opts.height * 65536, 80);
  const moov = box('moov', box('mvhd', mvhd), box('trak', box('tkhd', tkhd)));
  const mdat = box('mdat', Buffer.alloc(opts.mdatBytes ?? 1024, 7));
  // mdat before moov, as many encoders write it, so the probe must walk the top level.
  return Buffer.concat([ftyp, mdat, moov]);
}
