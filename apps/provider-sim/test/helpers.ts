// Shared test helpers: JSON requests and an SSE parser that keeps event names.
export interface SseEvent {
  event: string | null;
  data: string;
}

/** Parses a complete SSE body into events (blank-line separated; `event:` optional). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    events.push({ event, data: data.join('\n') });
  }
  return events;
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export interface Mp4Info {
  brand: string;
  duration: number;
  width: number;
  height: number;
  boxes: string[];
}

/** Reads the top-level boxes, mvhd duration and tkhd size of an MP4 (enough to check ours). */
export function inspectMp4(bytes: Uint8Array): Mp4Info {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = (at: number) => String.fromCharCode(...bytes.subarray(at + 4, at + 8));
  const children = (start: number, end: number) => {
    const out: Array<{ type: string; start: number; end: number }> = [];
    for (let at = start; at < end; ) {
      const size = view.getUint32(at);
      out.push({ type: type(at), start: at + 8, end: at + size });
      at += size;
    }
    return out;
  };
  const top = children(0, bytes.length);
  const moov = top.find((b) => b.type === 'moov')!;
  const inMoov = children(moov.start, moov.end);
  const mvhd = inMoov.find((b) => b.type === 'mvhd')!;
  const timescale = view.getUint32(mvhd.start + 12);
  const duration = view.getUint32(mvhd.start + 16) / timescale;
  const trak = inMoov.find((b) => b.type === 'trak')!;
  const tkhd = children(trak.start, trak.end).find((b) => b.type === 'tkhd')!;
  return {
    brand: String.fromCharCode(...bytes.subarray(8, 12)),
    duration,
    width: view.getUint32(tkhd.start + 76) >>> 16,
    height: view.getUint32(tkhd.start + 80) >>> 16,
    boxes: top.map((b) => b.type),
  };
}

/** Polls `read` until `done` says so (the simulator's processing time is short in tests). */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  tries = 100,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('polling did not finish');
}
