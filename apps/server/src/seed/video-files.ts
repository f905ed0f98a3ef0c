/**
 * Video files made without an encoder: for upload tests, container heads followed by filler (the
 * server trusts videos by their leading bytes only and stores them as they are); for demo data,
 * real MP4 files a browser plays, written here in full (H.264 with uncompressed I_PCM key frames
 * and skipped frames between them, so no codec library or download is needed).
 */
import { randomBytes } from 'node:crypto';

/** `size` bytes: `head`, then random filler. */
const file = (head: Buffer, size: number) =>
  Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);

/**
 * Files that pass the server's check by their leading bytes but do not play. The filler is
 * random, so no two files share a stored file unless a test sends the same buffer twice.
 */
export const videos = {
  /** An ISO base-media (MP4) file: an `ftyp` box of brand mp42. */
  mp4: (size = 4096) => file(Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0mp42isom', 'latin1'), size),
  /** A QuickTime movie: an `ftyp` box of brand `qt  `. */
  mov: (size = 4096) => file(Buffer.from('\0\0\0\x14ftypqt  \0\0\0\0qt  ', 'latin1'), size),
  /** A WebM file: the EBML magic number, then the start of its header. */
  webm: (size = 4096) =>
    file(
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01]),
      size,
    ),
};

/** A picture as 8-bit RGB pixels, row by row (sharp's `.raw()` output of a 3-channel image). */
export type RgbPicture = { width: number; height: number; rgb: Buffer };

/** Writes bits most significant first, with H.264's Exp-Golomb codes. */
class BitWriter {
  readonly #bytes: number[] = [];
  #current = 0;
  #used = 0;

  bit(b: number) {
    this.#current = (this.#current << 1) | (b & 1);
    if (++this.#used === 8) {
      this.#bytes.push(this.#current);
      this.#current = 0;
      this.#used = 0;
    }
  }
  bits(value: number, count: number) {
    for (let i = count - 1; i >= 0; i--) this.bit((value >>> i) & 1);
  }
  /** ue(v) */
  ue(value: number) {
    const v = value + 1;
    const length = 32 - Math.clz32(v);
    this.bits(0, length - 1);
    this.bits(v, length);
  }
  /** se(v) */
  se(value: number) {
    this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }
  get aligned() {
    return this.#used === 0;
  }
  byte(value: number) {
    this.bits(value, 8);
  }
  /** rbsp_trailing_bits: a one, then zeros to the byte boundary. */
  trailing(): Buffer {
    this.bit(1);
    while (!this.aligned) this.bit(0);
    return Buffer.from(this.#bytes);
  }
}

/** A NAL unit: header byte, then the payload with emulation-prevention bytes inserted. */
function nal(refIdc: number, type: number, rbsp: Buffer): Buffer {
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

const PROFILE_BASELINE = 66;
/** constraint_set0 and constraint_set1: Constrained Baseline, which every player decodes. */
const CONSTRAINTS = 0xc0;
const LEVEL = 31;

function sequenceParameterSet(mbWidth: number, mbHeight: number): Buffer {
  const w = new BitWriter();
  w.byte(PROFILE_BASELINE);
  w.byte(CONSTRAINTS);
  w.byte(LEVEL);
  w.ue(0); // seq_parameter_set_id
  w.ue(4); // log2_max_frame_num_minus4: frame_num has 8 bits
  w.ue(2); // pic_order_cnt_type 2: output order is decoding order
  w.ue(1); // max_num_ref_frames
  w.bit(0); // gaps_in_frame_num_value_allowed_flag
  w.ue(mbWidth - 1);
  w.ue(mbHeight - 1);
  w.bit(1); // frame_mbs_only_flag
  w.bit(1); // direct_8x8_inference_flag
  w.bit(0); // frame_cropping_flag
  w.bit(0); // vui_parameters_present_flag
  return nal(3, 7, w.trailing());
}

function pictureParameterSet(): Buffer {
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
  w.bit(0); // deblocking_filter_control_present_flag
  w.bit(0); // constrained_intra_pred_flag
  w.bit(0); // redundant_pic_cnt_present_flag
  return nal(3, 8, w.trailing());
}

/** BT.601 limited-range Y, Cb, Cr of one RGB pixel; never 0, so samples cannot mimic a start code. */
function yuv(r: number, g: number, b: number): [number, number, number] {
  const clamp = (v: number) => Math.max(1, Math.min(254, Math.round(v)));
  return [
    clamp(16 + 0.257 * r + 0.504 * g + 0.098 * b),
    clamp(128 - 0.148 * r - 0.291 * g + 0.439 * b),
    clamp(128 + 0.439 * r - 0.368 * g - 0.071 * b),
  ];
}

/** An IDR picture whose macroblocks are all I_PCM: the samples as they are, 4:2:0. */
function keyFrame(picture: RgbPicture, idrId: number): Buffer {
  const { width, height, rgb } = picture;
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(7); // slice_type: I, every slice of the picture
  w.ue(0); // pic_parameter_set_id
  w.bits(0, 8); // frame_num
  w.ue(idrId % 2); // idr_pic_id: consecutive IDR pictures differ
  w.bit(0); // no_output_of_prior_pics_flag
  w.bit(0); // long_term_reference_flag
  w.se(0); // slice_qp_delta
  const at = (x: number, y: number) => {
    const i = (Math.min(y, height - 1) * width + Math.min(x, width - 1)) * 3;
    return yuv(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!);
  };
  for (let my = 0; my < height / 16; my++) {
    for (let mx = 0; mx < width / 16; mx++) {
      w.ue(25); // mb_type I_PCM
      while (!w.aligned) w.bit(0); // pcm_alignment_zero_bit
      for (let y = 0; y < 16; y++)
        for (let x = 0; x < 16; x++) w.byte(at(mx * 16 + x, my * 16 + y)[0]);
      for (const plane of [1, 2] as const) {
        for (let y = 0; y < 8; y++) {
          for (let x = 0; x < 8; x++) {
            // The average of the 2×2 pixels each chroma sample covers.
            let sum = 0;
            for (const [dx, dy] of [
              [0, 0],
              [1, 0],
              [0, 1],
              [1, 1],
            ] as const) {
              sum += at(mx * 16 + x * 2 + dx, my * 16 + y * 2 + dy)[plane];
            }
            w.byte(Math.round(sum / 4));
          }
        }
      }
    }
  }
  return nal(3, 5, w.trailing());
}

/** A P picture whose macroblocks are all skipped: the previous picture again. */
function repeatFrame(frameNum: number, macroblocks: number): Buffer {
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(5); // slice_type: P, every slice of the picture
  w.ue(0); // pic_parameter_set_id
  w.bits(frameNum % 256, 8); // frame_num
  w.bit(0); // num_ref_idx_active_override_flag
  w.bit(0); // ref_pic_list_modification_flag_l0
  w.bit(0); // adaptive_ref_pic_marking_mode_flag
  w.se(0); // slice_qp_delta
  w.ue(macroblocks); // mb_skip_run: all of them
  return nal(2, 1, w.trailing());
}

/** An ISO base-media box: size, type, then the payload. */
function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}
/** Big-endian unsigned integers of 8, 16 or 32 bits, as a buffer. */
function u(bits: 8 | 16 | 32, ...values: number[]): Buffer {
  const out = Buffer.alloc((bits / 8) * values.length);
  values.forEach((v, i) => {
    if (bits === 8) out.writeUInt8(v, i);
    else if (bits === 16) out.writeUInt16BE(v, i * 2);
    else out.writeUInt32BE(v >>> 0, i * 4);
  });
  return out;
}
const full = (version: number, flags: number) => u(32, (version << 24) | flags);
const MATRIX = u(32, 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);

/**
 * A real, playable MP4 (H.264 Constrained Baseline, moov before mdat): each picture shown for
 * `secondsEach`, at `fps`. Pictures must share a size that is a multiple of 16 both ways.
 */
export function slideshowMp4(
  pictures: readonly RgbPicture[],
  options: { secondsEach?: number; fps?: number } = {},
): Buffer {
  const { secondsEach = 1, fps = 25 } = options;
  const { width, height } = pictures[0]!;
  if (width % 16 || height % 16 || pictures.some((p) => p.width !== width || p.height !== height))
    throw new Error('pictures must share one size, a multiple of 16 both ways');
  const macroblocks = (width / 16) * (height / 16);
  const perPicture = Math.max(1, Math.round(secondsEach * fps));
  const samples: Buffer[] = [];
  const keys: number[] = [];
  pictures.forEach((picture, p) => {
    keys.push(samples.length + 1);
    samples.push(keyFrame(picture, p));
    for (let f = 1; f < perPicture; f++) samples.push(repeatFrame(f, macroblocks));
  });
  // Samples carry their NAL units with a 4-byte length (avcC's lengthSizeMinusOne = 3).
  const framed = samples.map((s) => Buffer.concat([u(32, s.length), s]));
  const sps = sequenceParameterSet(width / 16, height / 16);
  const pps = pictureParameterSet();
  const timescale = fps * 1000;
  const duration = samples.length * 1000;
  const durationMs = Math.round((samples.length * 1000) / fps);

  const avcC = box(
    'avcC',
    u(8, 1, PROFILE_BASELINE, CONSTRAINTS, LEVEL, 0xff, 0xe1),
    u(16, sps.length),
    sps,
    u(8, 1),
    u(16, pps.length),
    pps,
  );
  const avc1 = box(
    'avc1',
    Buffer.alloc(6),
    u(16, 1), // data_reference_index
    Buffer.alloc(16),
    u(16, width, height),
    u(32, 0x480000, 0x480000, 0),
    u(16, 1), // frame_count
    Buffer.alloc(32), // compressorname
    u(16, 0x18, 0xffff),
    avcC,
  );
  const moov = (mdatOffset: number) =>
    box(
      'moov',
      box(
        'mvhd',
        full(0, 0),
        u(32, 0, 0, 1000, durationMs, 0x10000),
        u(16, 0x100, 0),
        u(32, 0, 0),
        MATRIX,
        Buffer.alloc(24),
        u(32, 2),
      ),
      box(
        'trak',
        box(
          'tkhd',
          full(0, 3),
          u(32, 0, 0, 1, 0, durationMs, 0, 0),
          u(16, 0, 0, 0, 0),
          MATRIX,
          u(32, width << 16, height << 16),
        ),
        box(
          'mdia',
          box('mdhd', full(0, 0), u(32, 0, 0, timescale, duration), u(16, 0x55c4, 0)),
          box(
            'hdlr',
            full(0, 0),
            u(32, 0),
            Buffer.from('vide', 'latin1'),
            Buffer.alloc(12),
            Buffer.from('VideoHandler\0', 'latin1'),
          ),
          box(
            'minf',
            box('vmhd', full(0, 1), u(16, 0, 0, 0, 0)),
            box('dinf', box('dref', full(0, 0), u(32, 1), box('url ', full(0, 1)))),
            box(
              'stbl',
              box('stsd', full(0, 0), u(32, 1), avc1),
              box('stts', full(0, 0), u(32, 1, samples.length, 1000)),
              box('stss', full(0, 0), u(32, keys.length, ...keys)),
              box('stsc', full(0, 0), u(32, 1, 1, samples.length, 1)),
              box('stsz', full(0, 0), u(32, 0, samples.length, ...framed.map((s) => s.length))),
              box('stco', full(0, 0), u(32, 1, mdatOffset)),
            ),
          ),
        ),
      ),
    );
  const ftyp = box(
    'ftyp',
    Buffer.from('isom', 'latin1'),
    u(32, 0x200),
    Buffer.from('isomiso2avc1mp41', 'latin1'),
  );
  // The chunk's offset does not change the moov's size: measure once, then write it for real.
  const mdatOffset = ftyp.length + moov(0).length + 8;
  return Buffer.concat([ftyp, moov(mdatOffset), box('mdat', ...framed)]);
}
