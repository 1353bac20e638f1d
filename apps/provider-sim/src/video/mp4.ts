// A real, minimal MP4 (ISO-BMFF + H.264 Baseline) built in code: one grey IDR frame followed by
// all-skip P frames at 24 fps. Players and probes read the requested duration and size from it,
// and it stays small (about one byte per 16×16 macroblock, plus a few bytes per frame).

export interface Mp4Spec {
  /** Seconds (may be fractional). */
  duration: number;
  width: number;
  height: number;
}

const FPS = 24;
const MOVIE_TIMESCALE = 1000;
const cache = new Map<string, Buffer>();

/** Returns the MP4 bytes for this size and duration (built once per parameter set, then cached). */
export function buildMp4(spec: Mp4Spec): Buffer {
  const width = evenAtLeast16(spec.width);
  const height = evenAtLeast16(spec.height);
  const frames = Math.max(1, Math.round(spec.duration * FPS));
  const key = `${width}x${height}x${frames}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const bytes = build(width, height, frames);
  if (cache.size > 256) cache.clear();
  cache.set(key, bytes);
  return bytes;
}

function evenAtLeast16(n: number): number {
  const value = Math.max(16, Math.round(n));
  return value % 2 === 0 ? value : value + 1;
}

// ---------------------------------------------------------------- H.264 bitstream

class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private count = 0;

  bit(b: number): void {
    this.current = (this.current << 1) | (b & 1);
    this.count++;
    if (this.count === 8) {
      this.bytes.push(this.current);
      this.current = 0;
      this.count = 0;
    }
  }
  bits(value: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.bit((value >>> i) & 1);
  }
  /** Unsigned Exp-Golomb. */
  ue(value: number): void {
    const v = value + 1;
    const len = 32 - Math.clz32(v);
    this.bits(0, len - 1);
    this.bits(v, len);
  }
  /** Signed Exp-Golomb. */
  se(value: number): void {
    this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }
  /** rbsp_trailing_bits: a stop bit, then zeros to the byte boundary. */
  trailing(): number[] {
    this.bit(1);
    while (this.count !== 0) this.bit(0);
    return this.bytes;
  }
}

/** Inserts emulation-prevention bytes and the NAL header. */
function nal(refIdc: number, type: number, rbsp: number[]): Buffer {
  const out: number[] = [(refIdc << 5) | type];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

interface Geometry {
  mbWidth: number;
  mbHeight: number;
  cropRight: number;
  cropBottom: number;
}

function geometry(width: number, height: number): Geometry {
  const mbWidth = Math.ceil(width / 16);
  const mbHeight = Math.ceil(height / 16);
  return {
    mbWidth,
    mbHeight,
    cropRight: (mbWidth * 16 - width) / 2,
    cropBottom: (mbHeight * 16 - height) / 2,
  };
}

function levelFor(mbs: number): number {
  if (mbs <= 1620) return 30; // up to 720×576
  if (mbs <= 3600) return 31; // up to 720p
  if (mbs <= 8192) return 40; // up to 1080p
  if (mbs <= 22080) return 50;
  return 51; // 4k
}

function sps(g: Geometry): Buffer {
  const w = new BitWriter();
  w.bits(66, 8); // profile_idc: Baseline
  w.bits(0xc0, 8); // constraint_set0/1 flags
  w.bits(levelFor(g.mbWidth * g.mbHeight), 8);
  w.ue(0); // seq_parameter_set_id
  w.ue(0); // log2_max_frame_num_minus4 → frame_num has 4 bits
  w.ue(2); // pic_order_cnt_type 2: output order = decoding order
  w.ue(1); // max_num_ref_frames
  w.bit(0); // gaps_in_frame_num_value_allowed_flag
  w.ue(g.mbWidth - 1);
  w.ue(g.mbHeight - 1);
  w.bit(1); // frame_mbs_only_flag
  w.bit(1); // direct_8x8_inference_flag
  const crop = g.cropRight > 0 || g.cropBottom > 0;
  w.bit(crop ? 1 : 0);
  if (crop) {
    w.ue(0);
    w.ue(g.cropRight);
    w.ue(0);
    w.ue(g.cropBottom);
  }
  w.bit(0); // vui_parameters_present_flag
  return nal(3, 7, w.trailing());
}

function pps(): Buffer {
  const w = new BitWriter();
  w.ue(0); // pic_parameter_set_id
  w.ue(0); // seq_parameter_set_id
  w.bit(0); // entropy_coding_mode_flag: CAVLC
  w.bit(0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0); // num_ref_idx_l0_default_active_minus1
  w.ue(0); // num_ref_idx_l1_default_active_minus1
  w.bit(0); // weighted_pred_flag
  w.bits(0, 2); // weighted_bipred_idc
  w.se(0); // pic_init_qp_minus26
  w.se(0); // pic_init_qs_minus26
  w.se(0); // chroma_qp_index_offset
  w.bit(1); // deblocking_filter_control_present_flag
  w.bit(0); // constrained_intra_pred_flag
  w.bit(0); // redundant_pic_cnt_present_flag
  return nal(3, 8, w.trailing());
}

/** An IDR frame where every macroblock is I_16x16, DC prediction, no residual: flat grey. */
function idrSlice(g: Geometry): Buffer {
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(7); // slice_type: I (all slices)
  w.ue(0); // pic_parameter_set_id
  w.bits(0, 4); // frame_num
  w.ue(0); // idr_pic_id
  w.bit(0); // no_output_of_prior_pics_flag
  w.bit(0); // long_term_reference_flag
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc: off
  const mbs = g.mbWidth * g.mbHeight;
  for (let i = 0; i < mbs; i++) {
    w.ue(3); // mb_type I_16x16_2_0_0: DC prediction, no coded AC, no chroma
    w.ue(0); // intra_chroma_pred_mode: DC
    w.se(0); // mb_qp_delta
    w.bit(1); // Intra16x16DCLevel coeff_token: TotalCoeff 0 (nC 0..1)
  }
  return nal(3, 5, w.trailing());
}

/** A P frame that skips every macroblock: repeats the previous picture. */
function skipSlice(g: Geometry, frameNum: number): Buffer {
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(5); // slice_type: P (all slices)
  w.ue(0); // pic_parameter_set_id
  w.bits(frameNum & 15, 4); // frame_num
  w.bit(0); // num_ref_idx_active_override_flag
  w.bit(0); // ref_pic_list_modification_flag_l0
  w.bit(0); // adaptive_ref_pic_marking_mode_flag (reference picture, sliding window)
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc
  w.ue(g.mbWidth * g.mbHeight); // mb_skip_run: the whole picture
  return nal(1, 1, w.trailing());
}

/** A sample = its NAL units, each prefixed with a 4-byte length (avcC lengthSizeMinusOne = 3). */
function sample(...units: Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const unit of units) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(unit.length);
    parts.push(length, unit);
  }
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------- ISO-BMFF boxes

function u8(n: number): Buffer {
  return Buffer.from([n & 0xff]);
}
function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}
function zeros(n: number): Buffer {
  return Buffer.alloc(n);
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(body.length + 8), Buffer.from(type, 'latin1'), body]);
}

function fullBox(type: string, version: number, flags: number, ...payload: Buffer[]): Buffer {
  return box(type, u32((version << 24) | flags), ...payload);
}

const MATRIX = Buffer.concat([
  u32(0x00010000),
  u32(0),
  u32(0),
  u32(0),
  u32(0x00010000),
  u32(0),
  u32(0),
  u32(0),
  u32(0x40000000),
]);

function avc1(width: number, height: number, spsUnit: Buffer, ppsUnit: Buffer): Buffer {
  const avcC = box(
    'avcC',
    u8(1), // configurationVersion
    spsUnit.subarray(1, 4), // profile, compatibility, level
    u8(0xff), // lengthSizeMinusOne = 3
    u8(0xe1), // one SPS
    u16(spsUnit.length),
    spsUnit,
    u8(1), // one PPS
    u16(ppsUnit.length),
    ppsUnit,
  );
  const name = Buffer.alloc(32);
  name.write('\u000cprovider-sim', 'latin1');
  return box(
    'avc1',
    zeros(6),
    u16(1), // data_reference_index
    zeros(16),
    u16(width),
    u16(height),
    u32(0x00480000), // 72 dpi
    u32(0x00480000),
    u32(0),
    u16(1), // frame_count
    name,
    u16(0x0018), // depth
    u16(0xffff),
    avcC,
  );
}

function build(width: number, height: number, frames: number): Buffer {
  const g = geometry(width, height);
  const spsUnit = sps(g);
  const ppsUnit = pps();
  const samples: Buffer[] = [sample(spsUnit, ppsUnit, idrSlice(g))];
  for (let i = 1; i < frames; i++) samples.push(sample(skipSlice(g, i)));
  const mediaDuration = frames; // media timescale = FPS, one tick per frame
  const movieDuration = Math.round((frames / FPS) * MOVIE_TIMESCALE);

  const ftyp = box(
    'ftyp',
    Buffer.from('isom', 'latin1'),
    u32(0x200),
    Buffer.from('isomiso2avc1mp41', 'latin1'),
  );
  const moovFor = (chunkOffset: number) =>
    box(
      'moov',
      fullBox(
        'mvhd',
        0,
        0,
        u32(0),
        u32(0),
        u32(MOVIE_TIMESCALE),
        u32(movieDuration),
        u32(0x00010000),
        u16(0x0100),
        zeros(10),
        MATRIX,
        zeros(24),
        u32(2),
      ),
      box(
        'trak',
        fullBox(
          'tkhd',
          0,
          3,
          u32(0),
          u32(0),
          u32(1),
          u32(0),
          u32(movieDuration),
          zeros(8),
          u16(0),
          u16(0),
          u16(0),
          u16(0),
          MATRIX,
          u32(width << 16),
          u32(height << 16),
        ),
        box(
          'mdia',
          fullBox('mdhd', 0, 0, u32(0), u32(0), u32(FPS), u32(mediaDuration), u16(0x55c4), u16(0)),
          fullBox(
            'hdlr',
            0,
            0,
            u32(0),
            Buffer.from('vide', 'latin1'),
            zeros(12),
            Buffer.from('VideoHandler\0', 'latin1'),
          ),
          box(
            'minf',
            fullBox('vmhd', 0, 1, zeros(8)),
            box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1))),
            box(
              'stbl',
              fullBox('stsd', 0, 0, u32(1), avc1(width, height, spsUnit, ppsUnit)),
              fullBox('stts', 0, 0, u32(1), u32(frames), u32(1)),
              fullBox('stss', 0, 0, u32(1), u32(1)),
              fullBox('stsc', 0, 0, u32(1), u32(1), u32(frames), u32(1)),
              fullBox('stsz', 0, 0, u32(0), u32(frames), ...samples.map((s) => u32(s.length))),
              fullBox('stco', 0, 0, u32(1), u32(chunkOffset)),
            ),
          ),
        ),
      ),
    );
  // The chunk offset depends on the moov size, which does not depend on the offset's value.
  const moovSize = moovFor(0).length;
  const moov = moovFor(ftyp.length + moovSize + 8);
  const mdat = box('mdat', ...samples);
  return Buffer.concat([ftyp, moov, mdat]);
}
