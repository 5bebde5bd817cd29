import type { Env } from '../env.ts';
import { pngSha256 } from './png-hash.ts';
import type { MediaOwner, StoredKeys, StoredPng } from './media-store.ts';

/**
 * Small pictures are kept in packs: a document's small PNGs (tiny rasters, a driver's bands,
 * bar codes) are written together as one R2 object, and each is served by a media id that says
 * where in which pack its bytes are. 20,000 pictures are one R2 write and one media index row,
 * not 20,000 of each (an R2 write per picture cost ~7 ms in `wrangler dev` and is a billed
 * operation on Cloudflare). Larger pictures stay content-addressed objects of their own
 * (media-store.ts).
 *
 * A packed medium's id is an RFC 9562 version 8 UUID: a marker, the pack's random id (60 bits),
 * the offset (28 bits) and length (16 bits) of the PNG in it. The id tells nothing about the
 * picture, and `GET /api/media/{id}` reads the bytes with one ranged R2 read, no index row; the
 * pack's metadata names its workspace instance and printer, checked as for any image
 * (routes/media.ts: served only while they live).
 * A printer reuses, while `StoredKeys` trusts the pack, the medium of a small picture it packed
 * lately (a logo on every receipt has one URL), and the document's media rows name that pack too,
 * so deleting the first document leaves the pack to the others.
 */
export const PACKED_PICTURE_MAX_BYTES = 8 * 1024;
/** Offsets are 28 bits: a pack holds at most this many bytes (a 16 MiB job's pictures fit many times). */
const PACK_MAX_BYTES = 1 << 28;
const MARKER = 'c0de';

export interface PackLocation {
  packKey: string;
  offset: number;
  length: number;
}

export const packKeyOf = (packHex: string): string => `packs/${packHex}.bin`;

function packedMediaId(packHex: string, offset: number, length: number): string {
  const free = MARKER + packHex + offset.toString(16).padStart(7, '0') + length.toString(16).padStart(4, '0');
  const h = `${free.slice(0, 12)}8${free.slice(12, 15)}8${free.slice(15)}`;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Where a packed medium's bytes are; null for any other media id. */
export function packedMediaLocation(mediaId: string): PackLocation | null {
  const h = mediaId.toLowerCase().replace(/-/g, '');
  if (h.length !== 32 || !h.startsWith(MARKER) || h[12] !== '8' || h[16] !== '8') return null;
  const free = h.slice(0, 12) + h.slice(13, 16) + h.slice(17);
  const packHex = free.slice(4, 19);
  const offset = parseInt(free.slice(19, 26), 16);
  const length = parseInt(free.slice(26, 30), 16);
  return /^[0-9a-f]{15}$/.test(packHex) && length > 0 ? { packKey: packKeyOf(packHex), offset, length } : null;
}

/**
 * The PNG bytes of a packed medium and its pack's metadata (whose pictures they are); null when
 * the pack is gone (or the id only looked packed).
 */
export async function readPackedPicture(bucket: R2Bucket, loc: PackLocation): Promise<{ bytes: Uint8Array; meta: Record<string, string> } | null> {
  const obj = await bucket.get(loc.packKey, { range: { offset: loc.offset, length: loc.length } });
  if (!obj) return null;
  const bytes = new Uint8Array(await obj.arrayBuffer());
  return bytes.length === loc.length ? { bytes, meta: obj.customMetadata ?? {} } : null;
}

/** A pack a document's pictures are in, as its media index row records it. */
export interface PackRow {
  storageKey: string;
  size: number;
  sha256: string;
}

/** Small pictures this printer packed lately, by the PNG's SHA-256 (bounded; trusted as long as `StoredKeys` trusts the pack). */
export class RecentPictures {
  private readonly bySha = new Map<string, { stored: StoredPng; pack: PackRow }>();
  constructor(private readonly max = 65_536) {}

  get(sha: string, trusted: StoredKeys): { stored: StoredPng; pack: PackRow } | undefined {
    const hit = this.bySha.get(sha);
    return hit && trusted.has(hit.pack.storageKey) ? hit : undefined;
  }

  add(sha: string, entry: { stored: StoredPng; pack: PackRow }): void {
    if (this.bySha.size >= this.max) this.bySha.clear();
    this.bySha.set(sha, entry);
  }
}

/**
 * A document's new small pictures, each given its place in a pack as the document builder meets
 * it (its media id says where: it is known before the pack is written), and written once the
 * document is built: one R2 object per pack (a pack holds at most PACK_MAX_BYTES).
 */
export class PackWriter {
  private readonly packs: { hex: string; bytes: number; pictures: { png: Uint8Array; stored: StoredPng }[] }[] = [];

  get isEmpty(): boolean {
    return this.packs.length === 0;
  }

  /** The medium `png` (SHA-256 `sha`, at most PACKED_PICTURE_MAX_BYTES) has: its place in this document's pack. */
  place(png: Uint8Array, sha: string): StoredPng {
    let pack = this.packs.at(-1);
    if (!pack || pack.bytes + png.length > PACK_MAX_BYTES) this.packs.push((pack = { hex: newPackHex(), bytes: 0, pictures: [] }));
    const stored = { mediaId: packedMediaId(pack.hex, pack.bytes, png.length), sha256: sha, storageKey: packKeyOf(pack.hex), size: png.length };
    pack.pictures.push({ png, stored });
    pack.bytes += png.length;
    return stored;
  }

  /**
   * Writes the packs; from then on this printer reuses their pictures (`recent`, while `trusted`
   * trusts the pack). Returns the packs, for the document's media rows.
   */
  async write(env: Env, owner: MediaOwner, trusted: StoredKeys, recent: RecentPictures): Promise<PackRow[]> {
    const rows: PackRow[] = [];
    for (const pack of this.packs) {
      const body = new Uint8Array(pack.bytes);
      let offset = 0;
      for (const { png } of pack.pictures) {
        body.set(png, offset);
        offset += png.length;
      }
      const row: PackRow = { storageKey: packKeyOf(pack.hex), size: body.length, sha256: pngSha256(body) };
      await env.MEDIA.put(row.storageKey, body, { httpMetadata: { contentType: 'application/octet-stream' }, customMetadata: { pictures: String(pack.pictures.length), workspaceId: owner.workspaceId, workspaceInstance: owner.workspaceInstance, printerId: owner.printerId } });
      trusted.add(row.storageKey);
      for (const { stored } of pack.pictures) recent.add(stored.sha256, { stored, pack: row });
      rows.push(row);
    }
    return rows;
  }
}

/** A new pack's random id: 60 bits, as 15 hex digits. */
function newPackHex(): string {
  return [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 15);
}
