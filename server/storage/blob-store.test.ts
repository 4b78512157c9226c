/**
 * The same behaviours of both photo stores, as their callers see them: on local disk, and in an
 * S3 bucket (s3rver, on local disk, started here; no network).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToOthers, walk, withUmask } from '../test/file-modes.js';
import { startS3Server, type TestS3Server } from '../test/s3-server.js';
import type { BlobStore, ListedBlob } from './blob-store.js';
import { DiskBlobStore } from './disk-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

const MiB = 1024 * 1024;
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** A fresh, empty store, and a way around it to the bytes it keeps. */
interface Subject {
  store: BlobStore;
  /** Puts other bytes under a stored blob's name, behind the store's back (bytes gone bad). */
  overwrite(hash: string, bytes: Buffer): Promise<void>;
  /** Leaves a half-done streamed write, as a killed process would, last touched now. */
  addIncoming(): Promise<string>;
  /** The streamed writes in progress or left behind. */
  incoming(): Promise<string[]>;
}

interface Kind {
  name: 'disk' | 's3';
  start(): Promise<void>;
  fresh(): Promise<Subject>;
  stop(): Promise<void>;
}

function diskKind(): Kind {
  const roots: string[] = [];
  return {
    name: 'disk',
    async start() {},
    async fresh() {
      const root = await mkdtemp(path.join(os.tmpdir(), 'blob-store-'));
      roots.push(root);
      return {
        store: new DiskBlobStore(root),
        async overwrite(hash, bytes) {
          await writeFile(path.join(root, hash.slice(0, 2), hash.slice(2, 4), hash), bytes);
        },
        async addIncoming() {
          const name = `incoming-${randomUUID()}.tmp`;
          await writeFile(path.join(root, name), 'half a report');
          return name;
        },
        async incoming() {
          return (await readdir(root)).filter((name) => name.startsWith('incoming-'));
        },
      };
    },
    async stop() {
      for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
    },
  };
}

function s3Kind(): Kind {
  let server: TestS3Server | undefined;
  const running = () => {
    if (!server) throw new Error('s3rver is not running');
    return server;
  };
  return {
    name: 's3',
    async start() {
      server = await startS3Server();
    },
    async fresh() {
      const { client, bucket } = running();
      // Each test its own prefix in the one bucket: what list() sees is only its own.
      const prefix = `t-${randomUUID()}/`;
      return {
        store: new S3BlobStore({ client, bucket, prefix }),
        async overwrite(hash, bytes) {
          const Key = `${prefix}${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
          await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: bytes, ContentLength: bytes.length }));
        },
        async addIncoming() {
          const Key = `${prefix}incoming/${randomUUID()}`;
          await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'half a report' }));
          return Key;
        },
        async incoming() {
          const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}incoming/` }));
          return (page.Contents ?? []).map((object) => object.Key ?? '');
        },
      };
    },
    async stop() {
      await server?.stop();
      server = undefined;
    },
  };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listAll(store: BlobStore): Promise<ListedBlob[]> {
  const listed: ListedBlob[] = [];
  for await (const blob of store.list()) listed.push(blob);
  return listed.sort((a, b) => a.hash.localeCompare(b.hash));
}

/** Bytes that differ from place to place (a part boundary that shifts them shows). */
function patterned(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) bytes[i] = (i * 31 + seed + (i >> 8)) & 0xff;
  return bytes;
}

describe.each([diskKind(), s3Kind()])('$name blob store', (kind) => {
  beforeAll(() => kind.start());
  afterAll(() => kind.stop());

  it('keeps bytes under their sha256, once however often they are put', async () => {
    const { store } = await kind.fresh();
    const bytes = patterned(5000, 1);
    const first = await store.put(bytes);
    const again = await store.put(Buffer.from(bytes));
    expect(first).toEqual({ hash: sha256(bytes), sizeBytes: 5000 });
    expect(again).toEqual(first);
    expect(await store.exists(first.hash)).toBe(true);
    expect(await store.size(first.hash)).toBe(5000);
    expect((await store.read(first.hash)).equals(bytes)).toBe(true);
    expect((await listAll(store)).map((blob) => blob.hash)).toEqual([first.hash]);

    const absent = sha256(Buffer.from('never stored'));
    expect(await store.exists(absent)).toBe(false);
    expect(await store.size(absent)).toBeNull();
  });

  it('leaves stored bytes alone on a second put, and writes them again with replace', async () => {
    const { store, overwrite } = await kind.fresh();
    const original = patterned(3000, 2);
    const bad = Buffer.from('these bytes went bad');
    const { hash } = await store.put(original);

    await overwrite(hash, bad);
    expect((await store.put(original)).hash).toBe(hash);
    expect((await store.read(hash)).equals(bad)).toBe(true);
    expect((await store.put(original, { replace: true })).hash).toBe(hash);
    expect((await store.read(hash)).equals(original)).toBe(true);

    await overwrite(hash, bad);
    await store.putStream(Readable.from([original]));
    expect((await store.read(hash)).equals(bad)).toBe(true);
    expect(await store.putStream(Readable.from([original]), { replace: true })).toEqual({ hash, sizeBytes: original.length });
    expect((await store.read(hash)).equals(original)).toBe(true);
  });

  it('fails a put from a stream of a photo that is gone with ENOENT, and stores nothing', async () => {
    // As a backup copies a photo deleted meanwhile: the read stream errs before the store reads it.
    const { store, incoming } = await kind.fresh();
    const gone = createHash('sha256').update('never stored').digest('hex');
    const emptyRoot = await mkdtemp(path.join(os.tmpdir(), 'blob-store-empty-'));
    try {
      await expect(store.putStream(new DiskBlobStore(emptyRoot).stream(gone))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(emptyRoot, { recursive: true, force: true });
    }
    expect(await store.exists(gone)).toBe(false);
    expect(await incoming()).toEqual([]);
  });

  it(
    'stores a stream longer than several upload parts as it comes, hashed right',
    async () => {
      const { store, overwrite, incoming } = await kind.fresh();
      const total = 20 * MiB;
      const chunkSize = 100_003; // Chunks that straddle every part boundary.
      const chunks = [3, 4, 5, 6, 7, 8, 9].map((seed) => patterned(chunkSize, seed));
      function* pieces() {
        for (let sent = 0, index = 0; sent < total; sent += chunkSize, index += 1) {
          yield (chunks[index % chunks.length] ?? Buffer.alloc(0)).subarray(0, Math.min(chunkSize, total - sent));
        }
      }
      const expected = createHash('sha256');
      for (const piece of pieces()) expected.update(piece);
      const hash = expected.digest('hex');
      // A generator, not one Buffer: the store sees the report as it is rendered.
      const report = () => Readable.from(pieces());

      const stored = await store.putStream(report());
      expect(stored).toEqual({ hash, sizeBytes: total });
      expect(await store.size(hash)).toBe(total);
      expect(sha256(await store.read(hash))).toBe(hash);
      expect(sha256(await collect(store.stream(hash)))).toBe(hash);
      expect(await incoming()).toEqual([]);

      // Again, over bytes gone bad: kept without replace, put right with it; nothing left behind.
      await overwrite(hash, Buffer.from('bad'));
      expect((await store.putStream(report())).hash).toBe(hash);
      expect(await store.size(hash)).toBe(3);
      expect(await store.putStream(report(), { replace: true })).toEqual({ hash, sizeBytes: total });
      expect(sha256(await store.read(hash))).toBe(hash);
      expect(await incoming()).toEqual([]);
      expect((await listAll(store)).map((blob) => [blob.hash, blob.sizeBytes])).toEqual([[hash, total]]);
    },
    180_000,
  );

  it('stores nothing of a stream that fails part way', async () => {
    const { store, incoming } = await kind.fresh();
    async function* broken() {
      yield patterned(9 * MiB, 10); // Past the first upload part.
      throw new Error('the render crashed');
    }
    await expect(store.putStream(Readable.from(broken()))).rejects.toThrow('the render crashed');
    expect(await listAll(store)).toEqual([]);
    expect(await incoming()).toEqual([]);
  });

  it('stores an empty stream', async () => {
    const { store } = await kind.fresh();
    expect(await store.putStream(Readable.from([]))).toEqual({ hash: EMPTY_SHA256, sizeBytes: 0 });
    expect(await store.exists(EMPTY_SHA256)).toBe(true);
    expect(await store.size(EMPTY_SHA256)).toBe(0);
    expect((await store.read(EMPTY_SHA256)).length).toBe(0);
    expect((await store.readHead(EMPTY_SHA256, 16)).length).toBe(0);
    expect((await collect(store.stream(EMPTY_SHA256))).length).toBe(0);
  });

  it('keeps staged bytes out of sight until they are committed, and drops them on discard', async () => {
    const { store, incoming } = await kind.fresh();
    const photo = patterned(300_000, 11);
    const hash = sha256(photo);
    const staged = await store.stage(Readable.from([photo.subarray(0, 1000), photo.subarray(1000)]));
    expect({ hash: staged.hash, sizeBytes: staged.sizeBytes }).toEqual({ hash, sizeBytes: photo.length });
    expect(await store.exists(hash)).toBe(false);
    expect(await listAll(store)).toEqual([]);
    await staged.commit();
    expect((await store.read(hash)).equals(photo)).toBe(true);
    expect(await incoming()).toEqual([]);
    await expect(staged.commit()).rejects.toThrow();

    const other = patterned(5000, 12);
    const dropped = await store.stage(Readable.from([other]));
    await dropped.discard();
    await dropped.discard();
    expect(await store.exists(dropped.hash)).toBe(false);
    expect(await incoming()).toEqual([]);
    expect((await listAll(store)).map((blob) => blob.hash)).toEqual([hash]);
  });

  it('commits staged bytes of a blob already stored without changing it', async () => {
    const { store, overwrite, incoming } = await kind.fresh();
    const photo = patterned(2000, 13);
    const { hash } = await store.put(photo);
    await overwrite(hash, Buffer.from('gone bad'));
    await (await store.stage(Readable.from([photo]))).commit();
    expect((await store.read(hash)).toString()).toBe('gone bad');
    await (await store.stage(Readable.from([photo]))).commit({ replace: true });
    expect((await store.read(hash)).equals(photo)).toBe(true);
    expect(await incoming()).toEqual([]);
  });

  it('streams the whole blob or just a range of it', async () => {
    const { store } = await kind.fresh();
    const bytes = patterned(70_000, 4);
    const { hash } = await store.put(bytes);
    expect((await collect(store.stream(hash))).equals(bytes)).toBe(true);
    expect((await collect(store.stream(hash, { start: 1000, end: 1999 }))).equals(bytes.subarray(1000, 2000))).toBe(true);
    expect((await collect(store.stream(hash, { start: 65_000, end: 69_999 }))).equals(bytes.subarray(65_000))).toBe(true);
    expect((await collect(store.stream(hash, { start: 5, end: 5 }))).equals(bytes.subarray(5, 6))).toBe(true);
  });

  it('fails a stream of a missing blob with ENOENT, as a missing file', async () => {
    const { store } = await kind.fresh();
    const stream = store.stream(sha256(Buffer.from('never stored')));
    await expect(collect(stream)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads the first bytes only', async () => {
    const { store } = await kind.fresh();
    const bytes = patterned(100, 5);
    const { hash } = await store.put(bytes);
    expect((await store.readHead(hash, 16)).equals(bytes.subarray(0, 16))).toBe(true);
    expect((await store.readHead(hash, 1)).equals(bytes.subarray(0, 1))).toBe(true);
    expect((await store.readHead(hash, 1000)).equals(bytes)).toBe(true);
  });

  it('lists the originals only: not variants, not writes in progress', async () => {
    const { store, addIncoming } = await kind.fresh();
    const one = await store.put(patterned(10, 6));
    const two = await store.put(patterned(20, 7));
    await store.putVariant(one.hash, 'thumb-320.webp', Buffer.from('thumbnail'));
    await store.putVariant(two.hash, 'print-1200.jpg', Buffer.from('print copy'));
    await addIncoming();
    const listed = await listAll(store);
    const expected = [one, two].sort((a, b) => a.hash.localeCompare(b.hash));
    expect(listed.map(({ hash, sizeBytes }) => ({ hash, sizeBytes }))).toEqual(expected);
    for (const blob of listed) expect(blob.modifiedAt).toBeInstanceOf(Date);
  });

  it('keeps variants beside a blob and deletes them with it', async () => {
    const { store } = await kind.fresh();
    const { hash } = await store.put(patterned(50, 8));
    expect(await store.readVariant(hash, 'thumb-320.webp')).toBeNull();
    await store.putVariant(hash, 'thumb-320.webp', Buffer.from('thumb one'));
    await store.putVariant(hash, 'thumb-320.webp', Buffer.from('thumb two'));
    await store.putVariant(hash, 'print-1200.jpg', Buffer.from('print'));
    expect((await store.readVariant(hash, 'thumb-320.webp'))?.toString()).toBe('thumb two');
    expect((await store.readVariant(hash, 'print-1200.jpg'))?.toString()).toBe('print');

    await store.delete(hash);
    expect(await store.exists(hash)).toBe(false);
    expect(await store.readVariant(hash, 'thumb-320.webp')).toBeNull();
    expect(await store.readVariant(hash, 'print-1200.jpg')).toBeNull();
    expect(await listAll(store)).toEqual([]);
    await store.delete(hash); // Already gone: no error.
  });

  it('removes writes left half done before the cutoff, and keeps later ones', async () => {
    const { store, addIncoming, incoming } = await kind.fresh();
    const { hash } = await store.put(patterned(40, 9));
    await store.putVariant(hash, 'thumb-320.webp', Buffer.from('thumb'));
    const left = await addIncoming();
    const hour = 60 * 60 * 1000;

    // Touched after the cutoff: possibly still being written.
    expect(await store.removeAbandonedWrites(new Date(Date.now() - hour))).toBe(0);
    expect((await incoming()).map((name) => path.basename(name))).toEqual([path.basename(left)]);

    // A cutoff after it: the write is old by then.
    expect(await store.removeAbandonedWrites(new Date(Date.now() + hour))).toBe(1);
    expect(await incoming()).toEqual([]);
    expect(await store.exists(hash)).toBe(true);
    expect((await store.readVariant(hash, 'thumb-320.webp'))?.toString()).toBe('thumb');
  });

  it('probes that it takes a write (the readiness check) and leaves nothing behind', async () => {
    const { store, incoming } = await kind.fresh();
    await store.probeWrite();
    await store.probeWrite();
    expect(await incoming()).toEqual([]);
    expect(await listAll(store)).toEqual([]);
  });

  it('refuses a name that is not a sha256 hex digest', async () => {
    const { store } = await kind.fresh();
    const attempt = (run: () => unknown) => expect((async () => run())()).rejects.toThrow(/sha256/);
    for (const bad of ['A'.repeat(64), 'ab', `../${'a'.repeat(61)}`]) {
      expect(() => store.stream(bad)).toThrow(/sha256/);
      await attempt(() => store.read(bad));
      await attempt(() => store.readHead(bad, 4));
      await attempt(() => store.readVariant(bad, 'thumb-320.webp'));
      await attempt(() => store.putVariant(bad, 'thumb-320.webp', Buffer.from('x')));
      await attempt(() => store.delete(bad));
    }
  });
});

describe('disk blob store on its folder', () => {
  it('fails the write probe when its folder cannot take a file', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'blob-store-probe-'));
    try {
      // A file where the store's folder should be: nothing can be written under it.
      await writeFile(path.join(parent, 'blobs'), 'not a folder');
      await expect(new DiskBlobStore(path.join(parent, 'blobs')).probeWrite()).rejects.toThrow();
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it("keeps every folder and file its owner's alone, whatever the process's umask", async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'blob-store-private-'));
    try {
      // The store makes its root too: DATA_DIR/blobs on a first start.
      const root = path.join(parent, 'blobs');
      const store = new DiskBlobStore(root);
      await withUmask(0o000, async () => {
        const { hash } = await store.put(patterned(5000, 7));
        await store.putStream(Readable.from([patterned(7000, 8)]));
        await store.putVariant(hash, 'thumb-320.webp', Buffer.from('thumb'));
        // An upload under way: its temporary file too.
        const staged = await store.stage(Readable.from([patterned(3000, 9)]));
        try {
          expect(await openToOthers(root)).toEqual([]);
          expect((await walk(root)).filter((entry) => entry.kind === 'file')).toHaveLength(4);
        } finally {
          await staged.discard();
        }
      });
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
