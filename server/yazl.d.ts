/**
 * The part of yazl 3 the server uses. Written here because @types/yazl 3.3 types the
 * `end()` callback without its argument (the zip's total size).
 */
declare module 'yazl' {
  import type { Readable } from 'node:stream';

  export interface EntryOptions {
    mtime?: Date;
    mode?: number;
    compress?: boolean;
    /** zlib's level, 0 to 9 (default 6); not with `compress`. */
    compressionLevel?: number;
    /** Needed for the total size to be known before the zip is written. */
    size?: number;
  }

  export class ZipFile {
    readonly outputStream: Readable;
    addReadStream(readStream: Readable, metadataPath: string, options?: EntryOptions): void;
    addBuffer(buffer: Buffer, metadataPath: string, options?: EntryOptions): void;
    addReadStreamLazy(
      metadataPath: string,
      options: EntryOptions,
      getReadStream: (ready: (error: Error | null, stream: Readable) => void) => void,
    ): void;
    /** The callback gets the zip's final size in bytes, or -1 when it cannot be known yet. */
    end(options?: { forceZip64Format?: boolean; comment?: string }, calculatedTotalSize?: (totalSize: number) => void): void;
  }
}
