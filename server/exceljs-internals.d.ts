/**
 * The parts of exceljs 4.4's own code that server/features/register/workbook-check.ts runs, so
 * that it reads a workbook's XML and cell ranges exactly as exceljs's `load` will. They are
 * exceljs's internals (it ships no types for them): a new exceljs version must be checked
 * against them.
 */
declare module 'exceljs/lib/utils/parse-sax.js' {
  export interface SaxTag {
    name: string;
    attributes: Record<string, string | undefined>;
  }
  export type SaxEvent = { eventType: 'opentag' | 'closetag'; value: SaxTag } | { eventType: 'text'; value: string };
  /** exceljs's saxes parser: the events of each chunk, in batches; throws on the first XML error. */
  export default function parseSax(chunks: AsyncIterable<string>): AsyncGenerator<SaxEvent[]>;
}

declare module 'exceljs/lib/utils/col-cache.js' {
  /** A cell ('$B$2'), or a range ('A1:C3') with its corners. Rows and columns count from 1. */
  export interface DecodedRef {
    row?: number;
    col?: number;
    top?: number;
    left?: number;
    bottom?: number;
    right?: number;
  }
  const colCache: {
    decodeAddress(ref: string): DecodedRef;
    /** `[sheet!]ref`; throws past column XFD. */
    decodeEx(ref: string): DecodedRef;
  };
  export default colCache;
}

declare module 'exceljs/lib/xlsx/xform/book/defined-name-xform.js' {
  import type { SaxTag } from 'exceljs/lib/utils/parse-sax.js';

  /** Reads one <definedName>: the ranges exceljs then expands cell by cell. */
  export default class DefinedNameXform {
    model: { name: string | undefined; ranges: string[] };
    parseOpen(tag: SaxTag): boolean;
    parseText(text: string): void;
    parseClose(name: string): boolean;
  }
}
