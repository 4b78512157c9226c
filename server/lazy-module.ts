/**
 * A module loaded on its first use rather than at start. Every module loaded at start stays in
 * the heap that each major GC marks for the life of the process, so one that only a rare
 * request needs (exceljs for an import, pdfkit for a report, the AWS SDK without S3) slows
 * every other request, uploads most. A failed load is not kept: the next use tries again, and
 * its error (a missing package) reaches the caller as it is.
 */
export interface LazyModule<T> {
  /** Loads the module once; later calls answer the same module. */
  (): Promise<T>;
  /** The module once loaded; a clear error before (a caller that skipped the load). */
  loaded(): T;
}

export function lazyModule<T>(name: string, load: () => Promise<T>): LazyModule<T> {
  let loading: Promise<T> | undefined;
  let module: T | undefined;
  const get = () =>
    (loading ??= load().then(
      (loadedModule) => (module = loadedModule),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return Object.assign(get, {
    loaded(): T {
      if (module === undefined) throw new Error(`${name} is used before it is loaded: await its loader first`);
      return module;
    },
  });
}
