import type { Env } from '../env.ts';
import { keyedMedium, putKeyedPng, type MediaIndexRow, type MediaOwner, type StoredKeys, type StoredPng } from './media-store.ts';
import { PACKED_PICTURE_MAX_BYTES, PackWriter, type PackRow, type RecentPictures } from './media-pack.ts';
import { pngSha256 } from './png-hash.ts';

/** What a printer object remembers of the pictures it stored lately (media-store.ts, media-pack.ts). */
export interface PictureMemory {
  storedKeys: StoredKeys;
  recent: RecentPictures;
}

/** R2 writes of a document's large pictures in flight at once. */
const PUTS_AT_ONCE = 16;

/**
 * A document's pictures, given their media as the document builder meets them: the builder asks
 * for each PNG's medium while it writes the body (`media`, synchronous), so no walk over the
 * job's elements comes before building and a text receipt pays nothing for pictures. Each
 * distinct PNG is hashed once and pictures with the same bytes are one medium: a small one
 * takes its place in the document's pack (media-pack.ts), or the place it has in a pack this
 * printer wrote lately; a large one is its keyed object (media-store.ts). `store` then writes
 * what is new to R2, before the document is announced, so every URL works from then on.
 */
export class DocumentPictures {
  private readonly bySha = new Map<string, StoredPng>();
  private readonly packs = new PackWriter();
  /** Packs written before that hold some of this document's pictures. */
  private readonly earlierPacks = new Map<string, PackRow>();
  private readonly large: { png: Uint8Array; stored: StoredPng }[] = [];

  constructor(private readonly env: Env, private readonly owner: MediaOwner, private readonly memory: PictureMemory) {}

  /** The medium of `png`. */
  media(png: Uint8Array): StoredPng {
    const sha = pngSha256(png);
    let stored = this.bySha.get(sha);
    if (stored) return stored;
    if (png.length <= PACKED_PICTURE_MAX_BYTES) {
      const known = this.memory.recent.get(sha, this.memory.storedKeys);
      if (known) this.earlierPacks.set(known.pack.storageKey, known.pack);
      stored = known?.stored ?? this.packs.place(png, sha);
    } else {
      stored = keyedMedium(this.env, this.owner, png);
      this.large.push({ png, stored });
    }
    this.bySha.set(sha, stored);
    return stored;
  }

  /** Writes what is new to R2. Returns the document's media rows: one per R2 object its pictures are in. */
  async store(): Promise<MediaIndexRow['stored'][]> {
    if (this.bySha.size === 0) return [];
    const { env, owner, memory } = this;
    const rows: MediaIndexRow['stored'][] = [...this.earlierPacks.values()];
    if (!this.packs.isEmpty) rows.push(...(await this.packs.write(env, owner, memory.storedKeys, memory.recent)));
    for (let i = 0; i < this.large.length; i += PUTS_AT_ONCE) {
      await Promise.all(this.large.slice(i, i + PUTS_AT_ONCE).map(({ png, stored }) => putKeyedPng(env, png, stored, owner, memory.storedKeys)));
    }
    rows.push(...this.large.map(({ stored }) => stored));
    return rows;
  }
}
