// A real, minimal MP4 (ISO-BMFF + H.264 Baseline) built in code, at 24 fps: the first frame is the
// task's input image (every macroblock I_PCM: its exact pixels) or, without one, grey with a
// white square; the P frames then slide a band across the middle of the picture to the right, four
// pixels a frame (each band macroblock predicted from the previous frame with one motion vector,
// no residual), so the square — or a strip of the image — visibly moves. Players and probes read
// the requested duration and size from it. Without an image it stays small (a few hundred bytes
// per frame); with one, the first frame holds every pixel (about 1.5 bytes each).
import { createHash } from 'node:crypto';
import { decodePng, type Raster, resize } from '../images/raster.js';

export interface Mp4Spec {
  /** Seconds (may be fractional). */
  duration: number;
  width: number;
  height: number;
  /** The first frame, as the task's input image (PNG; another type starts from grey). */
  image?: Buffer | undefined;
}

/** How far the band slides each frame, in pixels. */
const STEP = 4;

const FPS = 24;
const MOVIE_TIMESCALE = 1000;
const cache = new Map<string, Buffer>();

/** Returns the MP4 bytes for this size and duration (built once per parameter set, then cached). */
export function buildMp4(spec: Mp4Spec): Buffer {
  const width = evenAtLeast16(spec.width);
  const height = evenAtLeast16(spec.height);
  const frames = Math.max(1, Math.round(spec.duration * FPS));
  const image = spec.image ? createHash('sha256').update(spec.image).digest('hex') : 'grey';
  const key = `${width}x${height}x${frames}x${image}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const picture = spec.image ? decodePng(spec.image) : null;
  const bytes = build(width, height, frames, picture ? resize(picture, width, height) : null);
  // Videos that start from an image hold its pixels: keep fewer of them.
  if (cache.size > (picture ? 16 : 256)) cache.clear();
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
  /** Zero bits up to the next byte boundary (pcm_alignment_zero_bit). */
  align(): void {
    while (this.count !== 0) this.bit(0);
  }
  /** Whole bytes, at a byte boundary. */
  raw(values: Uint8Array): void {
    for (const value of values) this.bytes.push(value);
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

/** The picture of the first frame, as 4:2:0 samples per macroblock (I_PCM's order). */
interface FirstFrame {
  /** The 384 samples (256 luma, 64 Cb, 64 Cr) of a macroblock, or null where it is flat grey. */
  macroblock(mbX: number, mbY: number): Uint8Array | null;
}

/** BT.601 studio-swing Y, Cb, Cr of an RGB pixel; 0 is avoided (older decoders refuse it in PCM). */
function ycbcr(r: number, g: number, b: number): [number, number, number] {
  const clamp = (v: number) => Math.min(255, Math.max(1, Math.round(v)));
  return [
    clamp(16 + 0.257 * r + 0.504 * g + 0.098 * b),
    clamp(128 - 0.148 * r - 0.291 * g + 0.439 * b),
    clamp(128 + 0.439 * r - 0.368 * g - 0.071 * b),
  ];
}

/** Macroblock samples of a picture the frame's size (edges beyond it repeat the last pixel). */
function pictureFrame(picture: Raster): FirstFrame {
  const { width, height, pixels } = picture;
  const rgb = (x: number, y: number) => {
    const i = (Math.min(y, height - 1) * width + Math.min(x, width - 1)) * 4;
    return ycbcr(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!);
  };
  return {
    macroblock(mbX, mbY) {
      const out = new Uint8Array(384);
      for (let y = 0; y < 16; y++) {
        for (let x = 0; x < 16; x++) out[y * 16 + x] = rgb(mbX * 16 + x, mbY * 16 + y)[0];
      }
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          // One chroma sample for each 2×2 block of pixels: its top-left pixel's.
          const [, cb, cr] = rgb(mbX * 16 + 2 * x, mbY * 16 + 2 * y);
          out[256 + y * 8 + x] = cb;
          out[320 + y * 8 + x] = cr;
        }
      }
      return out;
    },
  };
}

/**
 * Grey (what an I_16x16 macroblock predicted from nothing decodes to) with a white 32×32 square at
 * the band's left end. The square's outermost pixels are grey too, so the grey macroblocks next to
 * it, predicted from their neighbours' edge pixels, stay grey.
 */
function squareFrame(band: Band | null): FirstFrame {
  const square = new Uint8Array(384);
  return {
    macroblock(mbX, mbY) {
      if (!band || mbX > 1 || mbY < band.top || mbY > band.top + 1) return null;
      square.fill(128);
      for (let y = 0; y < 16; y++) {
        for (let x = 0; x < 16; x++) {
          const px = mbX * 16 + x;
          const py = (mbY - band.top) * 16 + y;
          if (px > 0 && px < 31 && py > 0 && py < 31) square[y * 16 + x] = 235;
        }
      }
      return square;
    },
  };
}

/** The macroblock rows that slide: two rows across the middle, never the top one. */
interface Band {
  top: number;
  rows: number;
}

function bandOf(g: Geometry): Band | null {
  if (g.mbHeight < 3) return null;
  const top = Math.max(1, Math.floor(g.mbHeight / 2) - 1);
  return { top, rows: Math.min(2, g.mbHeight - top) };
}

/**
 * coeff_token of an Intra16x16DCLevel block with no coefficient, by nC: the mean of the left and
 * upper neighbours' coefficient counts, where an I_PCM neighbour counts 16 (Table 9-5).
 */
function noCoefficientToken(w: BitWriter, pcmLeft: boolean | null, pcmAbove: boolean | null): void {
  const counts = [pcmLeft, pcmAbove]
    .filter((n): n is boolean => n !== null)
    .map((pcm) => (pcm ? 16 : 0));
  const nC = counts.length === 2 ? (counts[0]! + counts[1]! + 1) >> 1 : (counts[0] ?? 0);
  if (nC < 2) w.bit(1);
  else if (nC < 4) w.bits(0b11, 2);
  else if (nC < 8) w.bits(0b1111, 4);
  else w.bits(0b000011, 6);
}

/**
 * The IDR frame: I_PCM macroblocks where the first frame has samples, I_16x16 DC prediction with no
 * residual (flat grey) elsewhere.
 */
function idrSlice(g: Geometry, frame: FirstFrame): Buffer {
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
  const pcm: boolean[] = [];
  for (let mbY = 0; mbY < g.mbHeight; mbY++) {
    for (let mbX = 0; mbX < g.mbWidth; mbX++) {
      const samples = frame.macroblock(mbX, mbY);
      const i = mbY * g.mbWidth + mbX;
      pcm[i] = samples !== null;
      if (samples) {
        w.ue(25); // mb_type I_PCM
        w.align();
        w.raw(samples);
        continue;
      }
      w.ue(3); // mb_type I_16x16_2_0_0: DC prediction, no coded AC, no chroma
      w.ue(0); // intra_chroma_pred_mode: DC
      w.se(0); // mb_qp_delta
      noCoefficientToken(w, mbX > 0 ? pcm[i - 1]! : null, mbY > 0 ? pcm[i - g.mbWidth]! : null);
    }
  }
  return nal(3, 5, w.trailing());
}

/**
 * A P frame: every macroblock skipped (the previous picture again) but the band's, each predicted
 * from STEP pixels to its left in the previous frame, so the band slides right. The motion vector
 * is written as its difference from the predicted one (8.4.1.3): in the band's first row the
 * neighbours above are skipped (motion 0), so the prediction is 0 and the difference is the whole
 * vector; in its second row every neighbour moves the same way, so the difference is 0. Skipped
 * macroblocks next to the band still predict 0: each has a left or upper neighbour that is
 * skipped, or none.
 */
function bandSlice(g: Geometry, frameNum: number, band: Band | null): Buffer {
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
  const total = g.mbWidth * g.mbHeight;
  if (!band) {
    w.ue(total); // mb_skip_run: the whole picture
    return nal(1, 1, w.trailing());
  }
  w.ue(band.top * g.mbWidth); // mb_skip_run: the rows above the band
  for (let row = 0; row < band.rows; row++) {
    for (let mbX = 0; mbX < g.mbWidth; mbX++) {
      if (row > 0 || mbX > 0) w.ue(0); // mb_skip_run between band macroblocks
      w.ue(0); // mb_type P_L0_16x16 (one reference: no ref_idx)
      w.se(row === 0 ? -4 * STEP : 0); // mvd_l0 x, quarter pixels: content from the left
      w.se(0); // mvd_l0 y
      w.ue(0); // coded_block_pattern 0 (inter): no residual, no mb_qp_delta
    }
  }
  const after = total - (band.top + band.rows) * g.mbWidth;
  if (after > 0) w.ue(after); // mb_skip_run: the rest of the picture
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

function build(width: number, height: number, frames: number, picture: Raster | null): Buffer {
  const g = geometry(width, height);
  const band = bandOf(g);
  const spsUnit = sps(g);
  const ppsUnit = pps();
  const first = picture ? pictureFrame(picture) : squareFrame(band);
  const samples: Buffer[] = [sample(spsUnit, ppsUnit, idrSlice(g, first))];
  for (let i = 1; i < frames; i++) samples.push(sample(bandSlice(g, i, band)));
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
